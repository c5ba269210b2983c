import { createHash } from 'node:crypto'
import type { SimulatedUpstream } from './upstreams.js'

export interface SimulatedRequest {
  method: string
  /** Path below the upstream's prefix, without the query string, e.g. '/api/v1/fees/recommended'. */
  path: string
  query: URLSearchParams
  /** Parsed JSON body (POST), or undefined. */
  body: unknown
  /** Named segments captured from the route pattern (':address' → params.address). */
  params: Record<string, string>
}

export interface SimulatorClock {
  /** Unix milliseconds (injectable). */
  now(): number
  /**
   * A deterministic pseudo-random number in [0, 1) for a key within the
   * current time bucket: values stay put within a bucket and move between
   * buckets, so the simulated markets vary over time but tests are stable.
   */
  random(key: string, bucketMs?: number): number
}

export interface SimulatedRoute {
  method: 'GET' | 'POST'
  /** Express-like pattern below the upstream prefix: '/api/v1/tx/:txid'. */
  path: string
  /** Returns the JSON body (status 200), or { status, body } for other answers. */
  handle(
    request: SimulatedRequest,
    clock: SimulatorClock
  ): unknown | { status: number; body: unknown }
}

/**
 * The simulated answers of one upstream, in the format of the real API.
 * `docs` names the public documentation the format follows.
 */
export interface UpstreamFixture {
  upstream: SimulatedUpstream
  docs: string
  routes: SimulatedRoute[]
}

export function defineFixture(fixture: UpstreamFixture) {
  return fixture
}

/** For answers other than 200: `return respond(404, {message: 'Not Found'})`. */
export function respond(status: number, body: unknown) {
  return { [RESPONSE]: true, status, body }
}
export const RESPONSE = Symbol('simulated response')

/** A deterministic value in [0, 1) for a key that never changes over time. */
export function stableRandom(clock: SimulatorClock, key: string) {
  return clock.random(key, Number.MAX_SAFE_INTEGER)
}

/** Deterministic hex (txids, hashes, addresses) derived from a key. */
export function hexOf(key: string, length = 64) {
  return createHash('sha256').update(key).digest('hex').slice(0, length)
}
