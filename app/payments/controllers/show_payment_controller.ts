import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import app from '@adonisjs/core/services/app'
import { Database } from '@adonisjs/lucid/database'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import type { ChainConfig } from '#config/chain'
import { E_PAYMENT_NOT_FOUND } from '#payments/exceptions'
import { PaymentRecorder } from '#payments/payment_recorder'
import { receiptMatches } from '#payments/receipts'
import { encodeSettlementResponse } from '#payments/x402_codec'

/**
 * GET /payments/0x<txid> with `x-payment-receipt`: the paid response of a
 * payment that was still settling when its request ended — 200 once
 * confirmed, 202 while pending, 402 payment_failed if it failed.
 */
@inject()
export default class ShowPaymentController {
  constructor(
    private db: Database,
    private watcher: ConfirmationWatcher,
    private recorder: PaymentRecorder
  ) {}

  async handle({ params, request, response }: HttpContext) {
    const match = /^0x([0-9a-fA-F]{64})$/.exec(String(params.txid))
    const txid = match?.[1].toLowerCase()
    const payment = txid ? await this.db.from('payments').where('txid', txid).first() : null
    if (
      !txid ||
      !payment ||
      !receiptMatches(request.header('x-payment-receipt'), payment.receipt_token_hash)
    ) {
      throw new E_PAYMENT_NOT_FOUND()
    }

    let status: string = payment.status
    if (status === 'claimed' || status === 'broadcast') {
      const outcome = await this.recorder.applyChainStatus(txid, await this.watcher.lookup(txid))
      if (outcome !== 'pending') status = outcome === 'failed' ? 'failed' : 'confirmed'
    }

    const network = app.config.get<ChainConfig>('chain').network.caip2
    const settlement = (success: boolean, errorReason?: string) =>
      encodeSettlementResponse({
        success,
        transaction: `0x${txid}`,
        network,
        payer: payment.payer,
        ...(errorReason ? { errorReason } : {}),
      })
    response.header('access-control-expose-headers', 'payment-required, payment-response')
    if (status === 'confirmed') {
      response.header('payment-response', settlement(true))
      response.header('content-type', 'application/json; charset=utf-8')
      return response.status(200).send(payment.response)
    }
    if (status === 'claimed' || status === 'broadcast') {
      response.header('payment-response', settlement(false, 'settlement_pending'))
      response.header('retry-after', '5')
      return response.status(202).send({ x402Version: 2, error: 'settlement_pending' })
    }
    response.header('payment-response', settlement(false, 'payment_failed'))
    return response.status(402).send({ x402Version: 2, error: 'payment_failed' })
  }
}
