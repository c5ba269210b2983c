import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { messageAsSent } from '#auth/validators'
import { ExchangeCreditToken } from '#credit/actions/exchange_credit_token'
import { creditTokenValidator } from '#credit/credit_token_validators'

/** POST /credit/tokens: a signed credit message in, a credit token (shown once) out. */
@inject()
export default class ExchangeCreditTokenController {
  constructor(private exchange: ExchangeCreditToken) {}

  async handle({ request, response }: HttpContext) {
    const input = await request.validateUsing(creditTokenValidator)
    const issued = await this.exchange.execute({
      message: messageAsSent(request.raw(), input.message)!,
      signature: input.signature,
    })
    response.status(201)
    return issued
  }
}
