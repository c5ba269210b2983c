import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ShowPayment } from '#payments/actions/show_payment'
import { sendPaidCallResult } from '#payments/paid_call_response'

/** GET /payments/0x<txid>: collects the response of a payment that was still settling. */
@inject()
export default class ShowPaymentController {
  constructor(private showPayment: ShowPayment) {}

  async handle({ params, request, response }: HttpContext) {
    const result = await this.showPayment.execute(
      String(params.txid),
      request.header('x-payment-receipt')
    )
    return sendPaidCallResult(response, result)
  }
}
