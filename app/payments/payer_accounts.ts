import type { PayerAccounts } from '#payments/verify_payment'

/**
 * The payer's balance and nonce, looked up once per payer every few seconds
 * (ARCHITECTURE §4) so an agent paying repeatedly does not cost one node call
 * per payment. A stale answer is harmless: an overdrawn or reused-nonce
 * transaction is still refused by the node at broadcast.
 */
export class CachedPayerAccounts implements PayerAccounts {
  #entries = new Map<string, { at: number; account: Promise<{ balance: bigint; nonce: bigint }> }>()

  constructor(
    private chain: PayerAccounts,
    private options: { ttlMs: number; maxEntries: number; now: () => number }
  ) {}

  getAccount(address: string) {
    const now = this.options.now()
    const cached = this.#entries.get(address)
    if (cached && now - cached.at < this.options.ttlMs) return cached.account

    const account = this.chain.getAccount(address)
    this.#entries.delete(address)
    this.#entries.set(address, { at: now, account })
    account.catch(() => this.#entries.delete(address))
    while (this.#entries.size > this.options.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!)
    }
    return account
  }
}
