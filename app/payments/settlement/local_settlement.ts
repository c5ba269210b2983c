import { normaliseTxid } from '#chain/broadcast_outcome'
import type { StacksClient } from '#chain/stacks_client'
import type { Clock } from '#core/clock'
import { broadcastTransaction, type BroadcastRetryOptions } from '#chain/broadcast_transaction'
import type { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { PaymentSettlement, type SettlementOutcome } from '#payments/settlement/payment_settlement'
import type { VerifiedPayment } from '#payments/verify_payment'

/**
 * Settlement in this process (the paywall's default and the built-in
 * facilitator's code): broadcast with retries on 429, then the block awaited,
 * within what the broadcast left of the wait, through the shared batching
 * watcher, so concurrent payments share chain calls. Its checks before the
 * fetch are the paywall's own (PreBroadcastChecks).
 */
export class LocalSettlement extends PaymentSettlement {
  constructor(
    private stacks: Pick<StacksClient, 'broadcast'>,
    private watcher: ConfirmationWatcher,
    private broadcast: BroadcastRetryOptions,
    private clock: Clock
  ) {
    super()
  }

  async settle(
    payment: VerifiedPayment,
    _price: bigint,
    { waitMs }: { waitMs: number }
  ): Promise<SettlementOutcome> {
    const startedAt = this.clock.now()
    const outcome = await broadcastTransaction(
      this.stacks,
      payment.bytes,
      this.broadcast,
      this.clock
    )
    if (outcome.kind === 'rejected') return { state: 'rejected', code: outcome.code }
    if (outcome.kind === 'rate_limited') return { state: 'rate_limited' }
    if (outcome.kind === 'accepted' && normaliseTxid(outcome.txid) !== payment.txid) {
      return { state: 'rejected', code: 'unexpected_settle_error' }
    }
    const confirmation = await this.watcher.wait(
      payment.txid,
      Math.max(0, waitMs - (this.clock.now() - startedAt))
    )
    if (confirmation.state === 'confirmed') {
      return { state: 'confirmed', blockHeight: confirmation.status.blockHeight }
    }
    if (confirmation.state === 'failed')
      return { state: 'failed', reason: confirmation.status.status }
    return { state: 'pending' }
  }
}
