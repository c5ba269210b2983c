/**
 * Remembers the promise of a look-up per key for `ttlMs`, so concurrent and
 * repeated callers share one answer; a rejected look-up is forgotten at
 * once. Bounded: the oldest entries go first beyond `maxEntries`.
 */
export class ExpiringCache<T> {
  #entries = new Map<string, { at: number; value: Promise<T> }>()

  constructor(private options: { ttlMs: number; maxEntries: number; now: () => number }) {}

  /** `maxAgeMs`: a shorter TTL for this call (a caller that must not act on an older answer). */
  get(key: string, lookUp: () => Promise<T>, maxAgeMs = this.options.ttlMs): Promise<T> {
    const now = this.options.now()
    const cached = this.#entries.get(key)
    if (cached && now - cached.at < Math.min(maxAgeMs, this.options.ttlMs)) return cached.value

    const value = lookUp()
    this.#entries.delete(key)
    this.#entries.set(key, { at: now, value })
    // A failed look-up is forgotten, unless a newer one has taken its place meanwhile.
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key)
    })
    while (this.#entries.size > this.options.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!)
    }
    return value
  }

  clear() {
    this.#entries.clear()
  }
}
