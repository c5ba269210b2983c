import { inject } from '@adonisjs/core'
import { Facilitator } from '#payments/facilitator'

@inject()
export default class FacilitatorSupportedController {
  constructor(private facilitator: Facilitator) {}

  async handle() {
    return this.facilitator.supported()
  }
}
