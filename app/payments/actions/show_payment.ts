import { inject } from '@adonisjs/core'
import { ChainConfig } from '#chain/define_config'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { E_PAYMENT_NOT_FOUND } from '#payments/exceptions'
import { type PaidCallResult, settlementResponse } from '#payments/paid_call_response'
import { PaymentLifecycle } from '#payments/payment_lifecycle'
import { PaymentRecords } from '#payments/payment_records'
import { receiptMatches } from '#payments/receipts'

/**
 * GET /payments/0x<txid> with `x-payment-receipt`: the paid response of a
 * payment that was still settling when its request ended — 200 once
 * confirmed, 202 while pending, 402 payment_failed if it failed. A settling
 * payment is looked up on chain first (and recorded if it settled).
 */
@inject()
export class ShowPayment {
  constructor(
    private records: PaymentRecords,
    private lifecycle: PaymentLifecycle,
    private watcher: ConfirmationWatcher,
    private chain: ChainConfig
  ) {}

  async execute(txidParam: string, receipt: string | undefined): Promise<PaidCallResult> {
    const txid = /^0x([0-9a-fA-F]{64})$/.exec(txidParam)?.[1].toLowerCase()
    const payment = txid ? await this.records.find(txid) : null
    if (!txid || !payment || !receiptMatches(receipt, payment.receipt_token_hash)) {
      throw new E_PAYMENT_NOT_FOUND()
    }

    let status = payment.status
    let response = payment.response
    if (status === 'claimed' || status === 'broadcast') {
      const outcome = await this.lifecycle.applyChainStatus(txid, await this.watcher.lookup(txid))
      if (outcome !== 'pending') status = outcome === 'failed' ? 'failed' : 'confirmed'
      // A top-up's answer is made as it confirms (docs/credit.md#top-ups).
      if (status === 'confirmed' && response === null) {
        const confirmed = await this.records.find(txid)
        response = confirmed?.response ?? null
      }
    }

    const network = this.chain.network.caip2
    switch (status) {
      case 'confirmed':
        return {
          kind: 'paid',
          body: response ?? '',
          settlement: settlementResponse(network, payment),
        }
      case 'claimed':
      case 'broadcast':
        return {
          kind: 'pending',
          body: { x402Version: 2, error: 'settlement_pending' },
          settlement: settlementResponse(network, payment, 'settlement_pending'),
        }
      case 'failed':
      case 'released':
        return {
          kind: 'payment_required',
          body: { x402Version: 2, error: 'payment_failed' },
          settlement: settlementResponse(network, payment, 'payment_failed'),
        }
      default: {
        const unknownStatus: never = status
        throw new Error(`unknown payment status ${String(unknownStatus)}`)
      }
    }
  }
}
