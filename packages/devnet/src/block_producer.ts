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
  #blockTime: BlockTime
  #interval: NodeJS.Timeout | null = null
  #scheduled: NodeJS.Immediate | null = null
  #stopped = false

  constructor(blockTime: BlockTime, mine: () => void) {
    this.#blockTime = checked(blockTime)
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

  /** Switches how blocks are mined from now on (a test mining manually, then instantly). */
  setBlockTime(blockTime: BlockTime): void {
    if (this.#stopped) return
    this.#halt()
    this.#blockTime = checked(blockTime)
    this.start()
  }

  stop(): void {
    this.#stopped = true
    this.#halt()
  }

  #halt() {
    if (this.#interval) clearInterval(this.#interval)
    if (this.#scheduled) clearImmediate(this.#scheduled)
    this.#interval = null
    this.#scheduled = null
  }
}

function checked(blockTime: BlockTime): BlockTime {
  if (typeof blockTime === 'number' && (!Number.isFinite(blockTime) || blockTime < 0)) {
    throw new Error(`blockTimeMs must be a non-negative number, null or 'manual', got ${blockTime}`)
  }
  return blockTime
}
