import { ExpiringCache } from '#core/expiring_cache'
import type { PayerAccounts } from '#payments/verify_payment'

type Account = { balance: bigint; nonce: bigint }

/**
 * The payer's balance and nonce, looked up once per payer every few seconds
 * (ARCHITECTURE §4) so an agent paying repeatedly does not cost one node call
 * per payment. A stale answer is harmless: an overdrawn or reused-nonce
 * transaction is still refused by the node at broadcast.
 */
export class CachedPayerAccounts implements PayerAccounts {
  #cache: ExpiringCache<Account>

  constructor(
    private chain: PayerAccounts,
    options: { ttlMs: number; maxEntries: number; now: () => number }
  ) {
    this.#cache = new ExpiringCache(options)
  }

  getAccount(address: string) {
    return this.#cache.get(address, () => this.chain.getAccount(address))
  }
}
