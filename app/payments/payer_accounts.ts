import { ExpiringCache } from '#core/expiring_cache'
import type { PayerAccount, PayerAccounts } from '#payments/verify_payment'

/**
 * The payer's balance and nonce, looked up once per payer every few seconds
 * (ARCHITECTURE §4) so an agent paying repeatedly does not cost one node call
 * per payment. A refusal is re-checked against a recent answer (`maxAgeMs`).
 * An acceptance on a stale one can cost at most a source call that is never
 * paid for (the node refuses the transaction at broadcast), within the TTL
 * and the payer's cap of payments in flight.
 */
export class CachedPayerAccounts implements PayerAccounts {
  #cache: ExpiringCache<PayerAccount>

  constructor(
    private chain: PayerAccounts,
    options: { ttlMs: number; maxEntries: number; now: () => number }
  ) {
    this.#cache = new ExpiringCache(options)
  }

  getAccount(address: string, options: { maxAgeMs?: number } = {}) {
    return this.#cache.get(address, () => this.chain.getAccount(address), options.maxAgeMs)
  }
}
