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

  readonly #readNextNonce: () => Promise<bigint>
  readonly #slots: number

  constructor(readNextNonce: () => Promise<bigint>, slots: number) {
    this.#readNextNonce = readNextNonce
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
    this.#free.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    // Free nonces at the top of the range are simply not handed out yet.
    while (this.#next !== null && this.#free.at(-1) === this.#next - 1n) {
      this.#free.pop()
      this.#next--
    }
  }

  async #allocate(): Promise<bigint> {
    if (this.#next === null || (this.#stale && this.#held.size === 0)) {
      this.#next = await this.#readNextNonce()
      this.#free = []
      this.#stale = false
    }
    const nonce = this.#free.shift() ?? this.#next++
    this.#held.add(nonce)
    return nonce
  }
}
