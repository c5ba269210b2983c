import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Facilitator } from '#payments/facilitator'
import { PAYWALL_PROOF_HEADER } from '#payments/paywall_proof'
import { facilitatorRequestValidator } from '#payments/validators/facilitator_validator'

@inject()
export default class FacilitatorVerifyController {
  constructor(private facilitator: Facilitator) {}

  async handle({ request }: HttpContext) {
    return this.facilitator.verify(
      await request.validateUsing(facilitatorRequestValidator),
      request.header(PAYWALL_PROOF_HEADER)
    )
  }
}
