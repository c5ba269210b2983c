import { normaliseTxid } from '#chain/broadcast_outcome'
import type { StacksClient } from '#chain/stacks_client'
import { broadcastTransaction, type BroadcastRetryOptions } from '#payments/broadcast_transaction'
import type { ConfirmationWatcher } from '#payments/confirmation_watcher'
import {
  PaymentSettlement,
  type PreflightResult,
  type SettlementOutcome,
} from '#payments/settlement/payment_settlement'
import {
  checkPayerAccount,
  type PayerAccounts,
  type VerifiedPayment,
} from '#payments/verify_payment'

/**
 * Settlement in this process (the built-in facilitator): the transaction is
 * looked up first (a known one is never broadcast again), broadcast with
 * retries on 429, and its block awaited; look-up and wait both go through
 * the shared batching watcher, so concurrent payments share chain calls.
 */
export class LocalSettlement extends PaymentSettlement {
  constructor(
    private stacks: Pick<StacksClient, 'broadcast'>,
    private accounts: PayerAccounts,
    private watcher: ConfirmationWatcher,
    private broadcast: BroadcastRetryOptions
  ) {
    super()
  }

  async preflight(payment: VerifiedPayment): Promise<PreflightResult> {
    if (await this.watcher.lookup(payment.txid)) return { ok: true, known: true }
    const account = await checkPayerAccount(payment, this.accounts)
    return account.ok ? { ok: true, known: false } : { ok: false, code: account.failure.code }
  }

  async settle(
    payment: VerifiedPayment,
    _price: bigint,
    { known, waitMs }: { known: boolean; waitMs: number }
  ): Promise<SettlementOutcome> {
    if (!known) {
      const outcome = await broadcastTransaction(this.stacks, payment.bytes, this.broadcast)
      if (outcome.kind === 'rejected') return { state: 'rejected', code: outcome.code }
      if (outcome.kind === 'rate_limited') return { state: 'rate_limited' }
      if (outcome.kind === 'accepted' && normaliseTxid(outcome.txid) !== payment.txid) {
        return { state: 'rejected', code: 'unexpected_settle_error' }
      }
    }
    const confirmation = await this.watcher.wait(payment.txid, waitMs)
    if (confirmation.state === 'confirmed') {
      return { state: 'confirmed', blockHeight: confirmation.status.blockHeight }
    }
    if (confirmation.state === 'failed')
      return { state: 'failed', reason: confirmation.status.status }
    return { state: 'pending' }
  }
}
