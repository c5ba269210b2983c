/**
 * The simulation's only source of randomness: mulberry32, a 32-bit generator
 * whose whole state is one number, so a seed replays the same draws on every
 * machine. Math.random and crypto randomness never decide what a run does.
 */
export class SeededRandom {
  #state: number

  constructor(seed: number) {
    this.#state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0
    let t = this.#state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** A bigint in [min, max]. */
  bigint(min: bigint, max: bigint): bigint {
    const span = max - min + 1n
    const high = BigInt(this.int(0, 0x1f_ffff))
    const low = BigInt(this.int(0, 0xffff_ffff))
    return min + (((high << 32n) | low) % span)
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('cannot pick from an empty list')
    return items[this.int(0, items.length - 1)]
  }

  /** One of the entries, each as likely as its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0)
    let draw = this.next() * total
    for (const [value, weight] of entries) {
      draw -= weight
      if (draw < 0) return value
    }
    return entries[entries.length - 1][0]
  }

  shuffle<T>(items: readonly T[]): T[] {
    const shuffled = [...items]
    for (let index = shuffled.length - 1; index > 0; index--) {
      const other = this.int(0, index)
      ;[shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]]
    }
    return shuffled
  }

  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string {
    let hex = ''
    for (let index = 0; index < bytes; index++)
      hex += this.int(0, 255).toString(16).padStart(2, '0')
    return hex
  }

  /** A compressed secp256k1 private key, as @stacks/transactions writes them. */
  privateKey(): string {
    return `${this.hex(32)}01`
  }

  /** A version-4-shaped UUID (idempotency keys, payment identifiers). */
  uuid(): string {
    const hex = this.hex(16)
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`
  }
}
