import type { LRUCache } from 'lru-cache'
import type { Clock } from '#core/clock'
import { clockedLruCache } from '#core/clocked_lru_cache'
import type { PayerAccount, PayerAccounts, VerifiedPayment } from '#payments/verify_payment'

interface Answer {
  account: PayerAccount
  /** When the node was asked: what `maxAgeMs` is measured from. */
  askedAt: number
}

/**
 * The payer's balance and nonce, looked up once per payer every few seconds
 * (docs/architecture.md#caches-and-time) so an agent paying repeatedly does not cost one node call
 * per payment; concurrent look-ups share one call, a failed one is not kept.
 * A refusal is re-checked against a recent answer (`maxAgeMs`). An acceptance
 * on a stale one can cost at most a source call that is never paid for (the
 * node refuses the transaction at broadcast), within the TTL and the payer's
 * cap of payments in flight.
 */
export class CachedPayerAccounts implements PayerAccounts {
  #answers: LRUCache<string, Answer>

  constructor(
    private chain: PayerAccounts,
    private clock: Clock,
    options: { ttlMs: number; maxEntries: number }
  ) {
    this.#answers = clockedLruCache(clock, {
      ttlMs: options.ttlMs,
      max: options.maxEntries,
      fetchMethod: async (address) => {
        const askedAt = this.clock.now()
        return { account: await this.chain.getAccount(address), askedAt }
      },
    })
  }

  /**
   * What a payment confirmed by this service did to its payer's account: the
   * next nonce follows it, the balance lost its amount and fee. Applied only
   * to an answer whose next nonce is this payment's (asked before it was
   * mined, nothing of the payer's missed since), which keeps its age: a payer
   * paying in a row is not refused on its own last payment's nonce (and the
   * node asked again) until the answer expires, and a refusal is still
   * re-checked against the node. Any other change of the account (an
   * incoming transfer, a transaction sent elsewhere, a confirmation applied
   * out of order) waits for the next look-up, as before.
   */
  confirmed(payment: Pick<VerifiedPayment, 'payer' | 'nonce' | 'amount' | 'fee'>) {
    // peek(): no look-up and no replaced one; an answer being fetched supersedes this one.
    const held = this.#answers.peek(payment.payer)
    if (held?.account.nonce !== payment.nonce) return
    held.account = {
      nonce: payment.nonce + 1n,
      balance: held.account.balance - payment.amount - payment.fee,
    }
  }

  async getAccount(address: string, { maxAgeMs = Infinity }: { maxAgeMs?: number } = {}) {
    const calledAt = this.clock.now()
    const shared = await this.#answers.forceFetch(address)
    if (calledAt - shared.askedAt < maxAgeMs) return shared.account
    // Too old for this caller: a new look-up, or one started since this call.
    const recent = await this.#answers.forceFetch(address, { forceRefresh: true })
    return recent.account
  }
}
