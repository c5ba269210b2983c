import { normaliseTxid } from '#chain/broadcast_outcome'
import type { StacksClient } from '#chain/stacks_client'
import { broadcastTransaction, type BroadcastRetryOptions } from '#payments/broadcast_transaction'
import type { ConfirmationWatcher } from '#payments/confirmation_watcher'
import type { PaymentClaims } from '#payments/payment_claims'
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
 * Settlement in this process (the paywall's default and the built-in
 * facilitator's code). Preflight refuses, before anything is fetched, what
 * this service must not or cannot broadcast: a transaction the chain already
 * knows (someone else broadcast it: redeeming it would sell another's
 * transfer) and one the node would refuse for the payer's account. Settle
 * broadcasts with retries on 429 and awaits the block; look-ups and waits go
 * through the shared batching watcher, so concurrent payments share chain calls.
 */
export class LocalSettlement extends PaymentSettlement {
  constructor(
    private stacks: Pick<StacksClient, 'broadcast'>,
    private accounts: PayerAccounts,
    private watcher: ConfirmationWatcher,
    private claims: Pick<PaymentClaims, 'inFlightOf'>,
    private broadcast: BroadcastRetryOptions
  ) {
    super()
  }

  async preflight(payment: VerifiedPayment): Promise<PreflightResult> {
    if (await this.watcher.lookup(payment.txid)) {
      return { ok: false, code: 'transaction_already_broadcast' }
    }
    const cached = await this.accounts.getAccount(payment.payer)
    const inFlight = await this.claims.inFlightOf(payment.payer, payment.txid)
    if (checkPayerAccount(payment, cached, inFlight).ok) return { ok: true }
    // Refuse only on what the node says now, never on a cached answer; the
    // payer's concurrent payments (consecutive nonces) have claimed meanwhile.
    const fresh = await this.accounts.getAccount(payment.payer, { fresh: true })
    const verdict = checkPayerAccount(
      payment,
      fresh,
      await this.claims.inFlightOf(payment.payer, payment.txid)
    )
    return verdict.ok ? { ok: true } : { ok: false, code: verdict.failure.code }
  }

  async settle(
    payment: VerifiedPayment,
    _price: bigint,
    { waitMs }: { waitMs: number }
  ): Promise<SettlementOutcome> {
    const outcome = await broadcastTransaction(this.stacks, payment.bytes, this.broadcast)
    if (outcome.kind === 'rejected') return { state: 'rejected', code: outcome.code }
    if (outcome.kind === 'rate_limited') return { state: 'rate_limited' }
    if (outcome.kind === 'accepted' && normaliseTxid(outcome.txid) !== payment.txid) {
      return { state: 'rejected', code: 'unexpected_settle_error' }
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
