/** What the Stacks API tells of an account's nonces. */
export interface AccountNonces {
  /** The nonce after the highest the chain has seen, executed or in its mempool. */
  next: bigint
  /** The highest nonce the chain executed (null: none yet). */
  lastExecuted: bigint | null
  /** Nonces below `next` the chain still waits for: gaps that hold its mempool's later transfers. */
  missing: bigint[]
}

/**
 * One paying account's nonces and in-flight calls. The server takes at most
 * `slots` payments of one payer in flight and a nonce no further ahead of the
 * account's next one than those it holds, so the client keeps the next nonce
 * itself (read once from the Stacks API), hands nonces out in order and runs
 * at most `slots` paid calls at once. A nonce whose transfer was provably
 * never broadcast is handed out again (lowest first): left unused, it would
 * be a gap that holds every later transfer of the account.
 */
export class Payer {
  #active = 0
  #queue: (() => void)[] = []
  #next: bigint | null = null
  #free: bigint[] = []
  #held = new Set<bigint>()
  /** An outcome was unknown: read the account's nonce again once nothing is in flight. */
  #stale = false
  #ordered: Promise<unknown> = Promise.resolve()

  readonly #readNonces: () => Promise<AccountNonces>
  readonly #slots: number

  constructor(readNonces: () => Promise<AccountNonces>, slots: number) {
    this.#readNonces = readNonces
    this.#slots = slots
  }

  /** Waits for one of the slots; returns its release. */
  async slot(): Promise<() => void> {
    if (this.#active >= this.#slots) await new Promise<void>((resolve) => this.#queue.push(resolve))
    else this.#active++
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.#queue.shift()
      if (next) next()
      else this.#active--
    }
  }

  /**
   * Runs `step` with the next nonce, one call at a time, so requests carrying
   * consecutive nonces leave in nonce order.
   */
  inOrder<T>(step: (nonce: bigint) => Promise<T>): Promise<T> {
    const run = this.#ordered.then(async () => {
      const nonce = await this.#allocate()
      try {
        return await step(nonce)
      } catch (error) {
        this.done(nonce, 'unused')
        throw error
      }
    })
    this.#ordered = run.catch(() => {})
    return run
  }

  /** Whether a lower nonce of this client is still in flight or waiting to be reused. */
  waitsOnLowerNonce(nonce: bigint): boolean {
    return [...this.#held, ...this.#free].some((other) => other < nonce)
  }

  /**
   * The nonce's transfer was `used` (broadcast: the nonce is spent), `unused`
   * (provably never broadcast: hand it out again) or `unknown`.
   */
  done(nonce: bigint, outcome: 'used' | 'unused' | 'unknown') {
    if (!this.#held.delete(nonce)) return
    if (outcome === 'unknown') this.#stale = true
    if (outcome !== 'unused') return
    this.#free.push(nonce)
    this.#free.sort(ascending)
    // Free nonces at the top of the range are simply not handed out yet.
    while (this.#next !== null && this.#free.at(-1) === this.#next - 1n) {
      this.#free.pop()
      this.#next--
    }
  }

  async #allocate(): Promise<bigint> {
    if (this.#next === null || (this.#stale && this.#held.size === 0)) {
      const account = await this.#readNonces()
      // A gap below the account's next nonce holds every later transfer: hand out the nonces the
      // chain reports missing and those freed here (never broadcast) that it has not seen yet.
      const gaps = new Set([...account.missing, ...this.#free])
      this.#next = account.next
      this.#free = [...gaps]
        .filter((nonce) => nonce < account.next && nonce > (account.lastExecuted ?? -1n))
        .sort(ascending)
      this.#stale = false
    }
    const nonce = this.#free.shift() ?? this.#next++
    this.#held.add(nonce)
    return nonce
  }
}

function ascending(a: bigint, b: bigint) {
  return a < b ? -1 : a > b ? 1 : 0
}
