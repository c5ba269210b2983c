import { inject } from '@adonisjs/core'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import type { ErrorCode } from '#core/error_codes'
import type { RequestLog } from '#core/request_log'
import { Clock } from '#core/clock'
import { topUpPaymentRequired, topUpResource } from '#credit/top_up_payment_required'
import type { Microstx } from '#ledger/money'
import { ServePaidCall } from '#payments/actions/serve_paid_call'
import type { PaidCallResult } from '#payments/paid_call_response'

export interface TopUpRequest {
  /** The amount asked, within config/credit.ts's bounds (checked by the validator). */
  amount: Microstx
  /** The `payment-signature` header, when the buyer sent one. */
  paymentHeader?: string
  log: RequestLog
}

/**
 * POST /credit/top-ups: an x402 v2 resource like a feed (docs/credit.md#top-ups).
 * Unpaid → 402 asking for the amount (nothing written); paid → the paid call's
 * own steps (verify, claim with purpose `credit_top_up`, pre-broadcast checks,
 * settle within the budget), with nothing to fetch: the payer's credit is
 * posted when the transfer confirms (PaymentLifecycle.confirm), which also
 * stores the answer — 200 then, 202 with a receipt while it settles.
 */
@inject()
export class BuyTopUp {
  constructor(
    private paidCall: ServePaidCall,
    private wallet: PlatformWallet,
    private clock: Clock,
    private chain: ChainConfig
  ) {}

  async execute({ amount, paymentHeader, log }: TopUpRequest): Promise<PaidCallResult> {
    const startedAt = this.clock.now()
    const paymentRequired = (error?: ErrorCode) =>
      topUpPaymentRequired(amount, {
        payTo: this.wallet.address,
        network: this.chain.network,
        error,
      })
    if (!paymentHeader) return { kind: 'payment_required', body: paymentRequired() }
    return this.paidCall.execute({
      resource: {
        purpose: 'credit_top_up',
        feedId: null,
        price: amount,
        resource: topUpResource(amount),
        paymentRequired,
        serve: async () => null,
      },
      paymentHeader,
      startedAt,
      log,
    })
  }
}
