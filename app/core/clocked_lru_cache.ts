import { LRUCache } from 'lru-cache'
import type { Clock } from '#core/clock'

export interface ClockedLruCacheOptions<K extends {}, V extends {}, FC> extends Omit<
  LRUCache.OptionsBase<K, V, FC>,
  'max' | 'ttl' | 'perf' | 'ttlResolution' | 'ignoreFetchAbort'
> {
  max: number
  /** An entry is served while younger than this (absent: entries carry their own `ttl`). */
  ttlMs?: number
}

/**
 * An lru-cache (bounded, least recently used first out; `fetch()` shares one
 * look-up between concurrent callers) whose every age is read from the
 * Clock, so tests expire entries by moving it:
 * - `ttlResolution: 0`: lru-cache would otherwise reuse a reading for 1 ms of real time;
 * - lru-cache keeps an entry while its age is at most its ttl, ours expire when
 *   their age reaches `ttlMs` (whole milliseconds): hence `ttlMs - 1`;
 * - a look-up whose entry is dropped meanwhile (cleared, evicted) still answers
 *   its callers (`ignoreFetchAbort`), it is just not kept.
 * An entry stored while the clock reads 0 never expires (lru-cache treats a
 * start of 0 as "no TTL"): test clocks start at a realistic time.
 */
export function clockedLruCache<K extends {}, V extends {}, FC = unknown>(
  clock: Clock,
  { ttlMs, ...options }: ClockedLruCacheOptions<K, V, FC>
): LRUCache<K, V, FC> {
  if (ttlMs !== undefined && !(Number.isSafeInteger(ttlMs) && ttlMs >= 2)) {
    throw new RangeError(`A cache TTL must be a whole number of milliseconds ≥ 2, got ${ttlMs}`)
  }
  return new LRUCache<K, V, FC>({
    ...options,
    ...(ttlMs === undefined ? {} : { ttl: ttlMs - 1 }),
    perf: clock,
    ttlResolution: 0,
    ignoreFetchAbort: true,
  })
}
