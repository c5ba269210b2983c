import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { messageAsSent } from '#auth/validators'
import { ChainConfig } from '#chain/define_config'
import { RequestRefund } from '#credit/actions/request_refund'
import { refundValidator } from '#credit/refund_validators'
import { refundView } from '#credit/refund_view'
import { RequestLog } from '#core/request_log'

/** POST /credit/refunds: 202 with a new refund on its way, 200 with the one this signed message made. */
@inject()
export default class RequestRefundController {
  constructor(
    private requestRefund: RequestRefund,
    private chain: ChainConfig
  ) {}

  async handle(ctx: HttpContext) {
    const { request, response } = ctx
    const input = await request.validateUsing(refundValidator)
    const { refund, created } = await this.requestRefund.execute({
      message: messageAsSent(request.raw(), input.message)!,
      signature: input.signature,
    })
    // A refund is a withdrawal: its lines are the withdrawal's (docs/operations.md#logs).
    new RequestLog(ctx).bind({ withdrawal_id: refund.id })
    const answer = { refund: refundView(refund, this.chain) }
    return created ? response.status(202).send(answer) : answer
  }
}
