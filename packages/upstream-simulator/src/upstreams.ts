/**
 * The upstream APIs the simulator answers, each under `/<name>/…`. These are
 * the names Tollbooth's built-in feeds use for their upstreams (its test suite
 * checks that both lists agree).
 */
export const SIMULATED_UPSTREAMS = [
  'mempool',
  'coingecko',
  'alternative_me',
  'defillama',
  'defillama_stablecoins',
  'snapshot',
  'github',
  'binance_futures',
  'dexscreener',
  'ethereum_rpc',
  'ethplorer',
  'hyperliquid',
] as const

export type SimulatedUpstream = (typeof SIMULATED_UPSTREAMS)[number]
