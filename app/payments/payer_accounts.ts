import { ExpiringCache } from '#core/expiring_cache'
import type { PayerAccount, PayerAccounts } from '#payments/verify_payment'

/**
 * The payer's balance and nonce, looked up once per payer every few seconds
 * (ARCHITECTURE §4) so an agent paying repeatedly does not cost one node call
 * per payment. A refusal is re-checked against a fresh answer (`fresh`); an
 * acceptance on a stale one is harmless: the node still refuses an overdrawn
 * or reused-nonce transaction at broadcast, and the payer's cap of payments
 * in flight bounds what such a window can cost.
 */
export class CachedPayerAccounts implements PayerAccounts {
  #cache: ExpiringCache<PayerAccount>

  constructor(
    private chain: PayerAccounts,
    options: { ttlMs: number; maxEntries: number; now: () => number }
  ) {
    this.#cache = new ExpiringCache(options)
  }

  getAccount(address: string, options: { fresh?: boolean } = {}) {
    if (options.fresh) this.#cache.forget(address)
    return this.#cache.get(address, () => this.chain.getAccount(address))
  }
}
