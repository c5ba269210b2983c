import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { BuyTopUp } from '#credit/actions/buy_top_up'
import { topUpValidator } from '#credit/top_up_validator'
import { sendPaidCallResult } from '#payments/paid_call_response'
import { RequestLog } from '#core/request_log'

/** POST /credit/top-ups?amount_stx=<decimal>: buys prepaid credit with an x402 payment. */
@inject()
export default class BuyTopUpController {
  constructor(private buyTopUp: BuyTopUp) {}

  async handle(ctx: HttpContext) {
    const { request, response } = ctx
    const { amount_stx: amount } = await request.validateUsing(topUpValidator, {
      data: request.qs(),
    })
    const result = await this.buyTopUp.execute({
      amount,
      paymentHeader: request.header('payment-signature'),
      log: new RequestLog(ctx),
    })
    return sendPaidCallResult(response, result)
  }
}
