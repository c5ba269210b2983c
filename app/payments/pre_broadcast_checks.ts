import type { ConfirmationWatcher } from '#payments/confirmation_watcher'
import type { PaymentRecords } from '#payments/payment_records'
import { type Refusable, refuse } from '#payments/payment_refusal'
import {
  checkPayerAccount,
  type PayerAccounts,
  type VerifiedPayment,
} from '#payments/verify_payment'

/**
 * What this service refuses about a claimed payment before anything is
 * fetched or broadcast, whichever facilitator settles it: a transaction the
 * chain already knows (someone else broadcast it: redeeming it would sell
 * another's transfer), and whatever the node would refuse for the payer's
 * account given the payer's other payments in flight. Look-ups go through
 * the shared batching watcher and the per-payer account cache.
 */
export class PreBroadcastChecks {
  constructor(
    private watcher: Pick<ConfirmationWatcher, 'lookup'>,
    private accounts: PayerAccounts,
    private records: Pick<PaymentRecords, 'inFlightOf'>,
    /** The clock of the account cache. */
    private now: () => number
  ) {}

  async check(payment: VerifiedPayment): Promise<Refusable> {
    const startedAt = this.now()
    const broadcast = await this.refuseIfKnownToChain(payment.txid)
    if (!broadcast.ok) return broadcast
    const cached = await this.accounts.getAccount(payment.payer)
    const inFlight = await this.records.inFlightOf(payment.payer, payment.txid)
    if (checkPayerAccount(payment, cached, inFlight).ok) return { ok: true }
    // Refuse only on an answer the node gave during this check (the cached one
    // may predate the payer's last confirmation); the payer's concurrent
    // payments (consecutive nonces) may have claimed meanwhile.
    const fresh = await this.accounts.getAccount(payment.payer, {
      maxAgeMs: this.now() - startedAt + 1,
    })
    const verdict = checkPayerAccount(
      payment,
      fresh,
      await this.records.inFlightOf(payment.payer, payment.txid)
    )
    return verdict.ok ? { ok: true } : verdict
  }

  /** The payment confirmed on chain: the payer's cached account follows it (PayerAccounts.confirmed). */
  confirmed(payment: VerifiedPayment) {
    this.accounts.confirmed?.(payment)
  }

  /** Refuses a transaction the chain already knows: someone broadcast it. */
  async refuseIfKnownToChain(txid: string): Promise<Refusable> {
    if ((await this.watcher.lookup(txid)) === null) return { ok: true }
    return refuse('transaction_already_broadcast', `the chain already knows transaction 0x${txid}`)
  }
}
