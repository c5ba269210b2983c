/**
 * When the devnet mines:
 * - a positive number: every that many milliseconds, empty blocks included;
 * - 0 ("instant"): on the tick after a transaction is accepted, so the
 *   broadcast answer still says pending and a lookup right after says mined;
 * - null or 'manual': only when asked.
 */
export type BlockTime = number | null | 'manual'

export class BlockProducer {
  readonly #mine: () => void
  readonly #blockTime: BlockTime
  #interval: NodeJS.Timeout | null = null
  #scheduled: NodeJS.Immediate | null = null
  #stopped = false

  constructor(blockTime: BlockTime, mine: () => void) {
    if (typeof blockTime === 'number' && (!Number.isFinite(blockTime) || blockTime < 0)) {
      throw new Error(
        `blockTimeMs must be a non-negative number, null or 'manual', got ${blockTime}`
      )
    }
    this.#blockTime = blockTime
    this.#mine = mine
  }

  get mode(): 'interval' | 'instant' | 'manual' {
    if (typeof this.#blockTime !== 'number') return 'manual'
    return this.#blockTime === 0 ? 'instant' : 'interval'
  }

  start(): void {
    if (this.mode !== 'interval' || this.#interval) return
    this.#interval = setInterval(() => this.#mine(), this.#blockTime as number)
    this.#interval.unref()
  }

  transactionAccepted(): void {
    if (this.mode !== 'instant' || this.#scheduled || this.#stopped) return
    this.#scheduled = setImmediate(() => {
      this.#scheduled = null
      this.#mine()
    })
  }

  stop(): void {
    this.#stopped = true
    if (this.#interval) clearInterval(this.#interval)
    if (this.#scheduled) clearImmediate(this.#scheduled)
    this.#interval = null
    this.#scheduled = null
  }
}
