import type { LRUCache } from 'lru-cache'
import type { Clock } from '#core/clock'
import { clockedLruCache } from '#core/clocked_lru_cache'
import type { PayerAccount, PayerAccounts } from '#payments/verify_payment'

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

  async getAccount(address: string, { maxAgeMs = Infinity }: { maxAgeMs?: number } = {}) {
    const calledAt = this.clock.now()
    const shared = await this.#answers.forceFetch(address)
    if (calledAt - shared.askedAt < maxAgeMs) return shared.account
    // Too old for this caller: a new look-up, or one started since this call.
    const recent = await this.#answers.forceFetch(address, { forceRefresh: true })
    return recent.account
  }
}
