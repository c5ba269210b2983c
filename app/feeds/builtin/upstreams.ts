/**
 * The public APIs the built-in feeds read. `baseUrl` is the real API; in
 * development and tests every upstream is served by the upstream simulator
 * under `<simulator>/<name>` instead (config/feeds.ts decides).
 */
export const UPSTREAMS = {
  mempool: {
    label: 'mempool.space',
    baseUrl: 'https://mempool.space',
    docs: 'https://mempool.space/docs/api/rest',
  },
  coingecko: {
    label: 'CoinGecko',
    baseUrl: 'https://api.coingecko.com',
    docs: 'https://docs.coingecko.com/reference/introduction',
  },
  alternative_me: {
    label: 'alternative.me Fear & Greed Index',
    baseUrl: 'https://api.alternative.me',
    docs: 'https://alternative.me/crypto/fear-and-greed-index/#api',
  },
  defillama: {
    label: 'DefiLlama',
    baseUrl: 'https://api.llama.fi',
    docs: 'https://api-docs.defillama.com/',
  },
  defillama_stablecoins: {
    label: 'DefiLlama Stablecoins',
    baseUrl: 'https://stablecoins.llama.fi',
    docs: 'https://api-docs.defillama.com/#tag/stablecoins',
  },
  snapshot: {
    label: 'Snapshot Hub GraphQL',
    baseUrl: 'https://hub.snapshot.org',
    docs: 'https://docs.snapshot.box/tools/api',
  },
  github: {
    label: 'GitHub REST API',
    baseUrl: 'https://api.github.com',
    docs: 'https://docs.github.com/en/rest/commits/commits',
  },
  binance_futures: {
    label: 'Binance USDⓈ-M Futures',
    baseUrl: 'https://fapi.binance.com',
    docs: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api',
  },
  dexscreener: {
    label: 'DEX Screener',
    baseUrl: 'https://api.dexscreener.com',
    docs: 'https://docs.dexscreener.com/api/reference',
  },
  ethereum_rpc: {
    label: 'Ethereum JSON-RPC (publicnode)',
    baseUrl: 'https://ethereum-rpc.publicnode.com',
    docs: 'https://ethereum.org/en/developers/docs/apis/json-rpc/',
  },
  ethplorer: {
    label: 'Ethplorer',
    baseUrl: 'https://api.ethplorer.io',
    docs: 'https://github.com/EverexIO/Ethplorer/wiki/Ethplorer-API',
  },
  hyperliquid: {
    label: 'Hyperliquid Info API',
    baseUrl: 'https://api.hyperliquid.xyz',
    docs: 'https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/info-endpoint',
  },
} as const

export type UpstreamName = keyof typeof UPSTREAMS
export const UPSTREAM_NAMES = Object.keys(UPSTREAMS) as UpstreamName[]

/** The environment variable that overrides an upstream's base URL: UPSTREAM_<NAME>_URL. */
export function upstreamUrlVariable(name: UpstreamName) {
  return `UPSTREAM_${name.toUpperCase()}_URL`
}
