import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { messageAsSent } from '#auth/validators'
import { ChainConfig } from '#chain/define_config'
import { RequestRefund } from '#credit/actions/request_refund'
import { refundValidator } from '#credit/refund_validators'
import { refundView } from '#credit/refund_view'

/** POST /credit/refunds: 202 with a new refund on its way, 200 with the one this signed message made. */
@inject()
export default class RequestRefundController {
  constructor(
    private requestRefund: RequestRefund,
    private chain: ChainConfig
  ) {}

  async handle({ request, response }: HttpContext) {
    const input = await request.validateUsing(refundValidator)
    const { refund, created } = await this.requestRefund.execute({
      message: messageAsSent(request.raw(), input.message)!,
      signature: input.signature,
    })
    const answer = { refund: refundView(refund, this.chain) }
    return created ? response.status(202).send(answer) : answer
  }
}
