import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ChainConfig } from '#chain/define_config'
import { ShowRefund } from '#credit/actions/show_refund'
import { refundView } from '#credit/refund_view'

/** GET /credit/refunds/:id: one of the wallet's refunds. */
@inject()
export default class ShowRefundController {
  constructor(
    private showRefund: ShowRefund,
    private chain: ChainConfig
  ) {}

  async handle({ creditWallet, params }: HttpContext) {
    const refund = await this.showRefund.execute(creditWallet, String(params.id))
    return { refund: refundView(refund, this.chain) }
  }
}
