import { inject } from '@adonisjs/core'
import { WellKnownX402 } from '#discovery/well_known_x402'

@inject()
export default class ShowWellKnownX402Controller {
  constructor(private wellKnown: WellKnownX402) {}

  async handle() {
    return this.wellKnown.document()
  }
}
