import type { BuiltinAdapter } from '#feeds/builtin/adapter'
import type { JsonSchema } from '#feeds/builtin/schemas/json_schema'
import type { QueryParameter } from '#feeds/feed_declaration'
import bridgeFlows from '#feeds/builtin/schemas/bridge_flows'
import btcSentiment from '#feeds/builtin/schemas/btc_sentiment'
import defiScores from '#feeds/builtin/schemas/defi_scores'
import devActivity from '#feeds/builtin/schemas/dev_activity'
import dexTrades from '#feeds/builtin/schemas/dex_trades'
import gasPrediction from '#feeds/builtin/schemas/gas_prediction'
import governance from '#feeds/builtin/schemas/governance'
import liquidationAlerts from '#feeds/builtin/schemas/liquidation_alerts'
import securityAlerts from '#feeds/builtin/schemas/security_alerts'
import smartMoneyFlows from '#feeds/builtin/schemas/smart_money_flows'
import smartMoneyHoldings from '#feeds/builtin/schemas/smart_money_holdings'
import stablecoinFlows from '#feeds/builtin/schemas/stablecoin_flows'
import tokenIntel from '#feeds/builtin/schemas/token_intel'
import tokenLaunches from '#feeds/builtin/schemas/token_launches'
import walletProfiler from '#feeds/builtin/schemas/wallet_profiler'
import whaleAlerts from '#feeds/builtin/schemas/whale_alerts'

export interface BuiltinFeedDefinition {
  id: string
  displayName: string
  /** Price per call in µSTX. */
  priceMicrostx: bigint
  category: string
  description: string
  /** As shown in the registry. */
  updateFrequency: string
  /** How long a fetched value is served before the upstream is asked again. */
  cacheTtlSeconds: number
  adapter: () => Promise<{ default: BuiltinAdapter<any> }>
  /** What the feed answers, declared beside its adapter's output (docs/feeds.md). */
  declaration: BuiltinDeclaration
}

/** A built-in feed's declaration: its `data` schema and an example, its query parameters. */
export interface BuiltinDeclaration {
  data: JsonSchema
  example: unknown
  query?: QueryParameter[]
}

/** The sixteen built-in feeds of the spec, served at /feeds/<id>. */
export const BUILTIN_FEEDS: BuiltinFeedDefinition[] = [
  {
    id: 'whale-alerts',
    displayName: 'Whale Alerts',
    priceMicrostx: 5_000n,
    category: 'on-chain',
    description: 'Bitcoin transfers above 100 BTC, labelled and ranked by significance',
    updateFrequency: '1 minute',
    cacheTtlSeconds: 60,
    adapter: () => import('#feeds/builtin/adapters/whale_alerts'),
    declaration: whaleAlerts,
  },
  {
    id: 'btc-sentiment',
    displayName: 'BTC Sentiment',
    priceMicrostx: 3_000n,
    category: 'social',
    description: 'Bitcoin sentiment from social networks and news, with the Fear & Greed Index',
    updateFrequency: '5 minutes',
    cacheTtlSeconds: 300,
    adapter: () => import('#feeds/builtin/adapters/btc_sentiment'),
    declaration: btcSentiment,
  },
  {
    id: 'defi-scores',
    displayName: 'DeFi Scores',
    priceMicrostx: 10_000n,
    category: 'analytics',
    description: 'Risk and opportunity scores of DeFi protocols',
    updateFrequency: '15 minutes',
    cacheTtlSeconds: 900,
    adapter: () => import('#feeds/builtin/adapters/defi_scores'),
    declaration: defiScores,
  },
  {
    id: 'smart-money-flows',
    displayName: 'Smart Money Flows',
    priceMicrostx: 80_000n,
    category: 'on-chain',
    description: 'Net token flows of tracked top wallets',
    updateFrequency: '5 minutes',
    cacheTtlSeconds: 300,
    adapter: () => import('#feeds/builtin/adapters/smart_money_flows'),
    declaration: smartMoneyFlows,
  },
  {
    id: 'token-intel',
    displayName: 'Token Intel',
    priceMicrostx: 50_000n,
    category: 'analytics',
    description: 'Token buy/sell metrics, liquidity and signals (query: address, chain)',
    updateFrequency: '1 minute',
    cacheTtlSeconds: 60,
    adapter: () => import('#feeds/builtin/adapters/token_intel'),
    declaration: tokenIntel,
  },
  {
    id: 'wallet-profiler',
    displayName: 'Wallet Profiler',
    priceMicrostx: 50_000n,
    category: 'on-chain',
    description: 'Wallet holdings, allocation and concentration (query: address, chain)',
    updateFrequency: '5 minutes',
    cacheTtlSeconds: 300,
    adapter: () => import('#feeds/builtin/adapters/wallet_profiler'),
    declaration: walletProfiler,
  },
  {
    id: 'smart-money-holdings',
    displayName: 'Smart Money Holdings',
    priceMicrostx: 50_000n,
    category: 'on-chain',
    description: 'Current holdings of tracked top wallets with accumulation/distribution signals',
    updateFrequency: '15 minutes',
    cacheTtlSeconds: 900,
    adapter: () => import('#feeds/builtin/adapters/smart_money_holdings'),
    declaration: smartMoneyHoldings,
  },
  {
    id: 'dex-trades',
    displayName: 'DEX Trades',
    priceMicrostx: 80_000n,
    category: 'on-chain',
    description: 'DEX and perpetual trades of tracked top wallets',
    updateFrequency: '1 minute',
    cacheTtlSeconds: 60,
    adapter: () => import('#feeds/builtin/adapters/dex_trades'),
    declaration: dexTrades,
  },
  {
    id: 'liquidation-alerts',
    displayName: 'Liquidation Alerts',
    priceMicrostx: 8_000n,
    category: 'derivatives',
    description: 'Futures liquidations, by side and symbol',
    updateFrequency: '1 minute',
    cacheTtlSeconds: 60,
    adapter: () => import('#feeds/builtin/adapters/liquidation_alerts'),
    declaration: liquidationAlerts,
  },
  {
    id: 'gas-prediction',
    displayName: 'Gas Prediction',
    priceMicrostx: 3_000n,
    category: 'infrastructure',
    description: 'Ethereum gas and Bitcoin mempool fee estimates',
    updateFrequency: '30 seconds',
    cacheTtlSeconds: 30,
    adapter: () => import('#feeds/builtin/adapters/gas_prediction'),
    declaration: gasPrediction,
  },
  {
    id: 'token-launches',
    displayName: 'Token Launches',
    priceMicrostx: 5_000n,
    category: 'discovery',
    description: 'New and trending tokens',
    updateFrequency: '5 minutes',
    cacheTtlSeconds: 300,
    adapter: () => import('#feeds/builtin/adapters/token_launches'),
    declaration: tokenLaunches,
  },
  {
    id: 'governance',
    displayName: 'Governance',
    priceMicrostx: 5_000n,
    category: 'governance',
    description: 'Active DAO proposals and voting',
    updateFrequency: '15 minutes',
    cacheTtlSeconds: 900,
    adapter: () => import('#feeds/builtin/adapters/governance'),
    declaration: governance,
  },
  {
    id: 'stablecoin-flows',
    displayName: 'Stablecoin Flows',
    priceMicrostx: 5_000n,
    category: 'analytics',
    description: 'Stablecoin market cap changes, peg deviations and chain distribution',
    updateFrequency: '15 minutes',
    cacheTtlSeconds: 900,
    adapter: () => import('#feeds/builtin/adapters/stablecoin_flows'),
    declaration: stablecoinFlows,
  },
  {
    id: 'security-alerts',
    displayName: 'Security Alerts',
    priceMicrostx: 5_000n,
    category: 'security',
    description: 'Hacks, exploits and rug-pull risk with an assessment per protocol',
    updateFrequency: '1 hour',
    cacheTtlSeconds: 3_600,
    adapter: () => import('#feeds/builtin/adapters/security_alerts'),
    declaration: securityAlerts,
  },
  {
    id: 'dev-activity',
    displayName: 'Dev Activity',
    priceMicrostx: 3_000n,
    category: 'development',
    description: 'Commit activity across Stacks, Ethereum and Solana repositories',
    updateFrequency: '1 hour',
    cacheTtlSeconds: 3_600,
    adapter: () => import('#feeds/builtin/adapters/dev_activity'),
    declaration: devActivity,
  },
  {
    id: 'bridge-flows',
    displayName: 'Bridge Flows',
    priceMicrostx: 5_000n,
    category: 'cross-chain',
    description: 'Bridge volume, top bridges and chain flows',
    updateFrequency: '15 minutes',
    cacheTtlSeconds: 900,
    adapter: () => import('#feeds/builtin/adapters/bridge_flows'),
    declaration: bridgeFlows,
  },
]
