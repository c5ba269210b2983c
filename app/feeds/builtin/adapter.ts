import type { UpstreamName } from '#feeds/builtin/upstreams'
import type { Validates } from '#outbound/json_request'

export interface UpstreamRequest {
  method?: 'GET' | 'POST'
  /** JSON body for POST (GraphQL, JSON-RPC, Hyperliquid's info endpoint). */
  body?: unknown
  headers?: Record<string, string>
}

/**
 * How adapters reach their upstreams. `getJson` resolves the path against the
 * upstream's base URL (the real API, or the simulator), applies the time-out
 * and size cap, parses JSON and validates it with the given schema. Any
 * failure — time-out, non-2xx, oversize, malformed JSON, schema drift —
 * throws UpstreamFailure; adapters do not catch it.
 */
export interface UpstreamHttp {
  getJson<T>(
    upstream: UpstreamName,
    path: string,
    schema: Validates<T>,
    request?: UpstreamRequest
  ): Promise<T>
}

export interface AdapterContext<Query> {
  http: UpstreamHttp
  /** The validated query parameters (empty object for feeds that take none). */
  query: Query
  /** Unix milliseconds; use it instead of Date.now() so tests control time. */
  now: () => number
  /** Settings from config/feeds.ts (e.g. tracked wallets); see BuiltinFeedsSettings. */
  settings: BuiltinFeedsSettings
}

export interface BuiltinFeedsSettings {
  /** Ethereum addresses of the wallets the smart-money feeds follow. */
  smartMoneyWallets: { address: string; label: string }[]
  /** Ethplorer API key ("freekey" is Ethplorer's public rate-limited key). */
  ethplorerApiKey: string
  /** Optional GitHub token (raises the rate limit of dev-activity). */
  githubToken?: string
}

/**
 * One built-in feed's data logic: which upstreams it reads, what query it
 * accepts, and how it turns upstream answers into the feed's content (the
 * `data` of the paid envelope). Pure apart from ctx.http.
 */
export interface BuiltinAdapter<Query = Record<string, never>> {
  upstreams: readonly UpstreamName[]
  /** VineJS validator of the query string; absent → the feed takes no parameters. */
  query?: Validates<Query>
  fetch(ctx: AdapterContext<Query>): Promise<unknown>
}

export function defineAdapter<Query = Record<string, never>>(adapter: BuiltinAdapter<Query>) {
  return adapter
}
