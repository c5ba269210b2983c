import {
  array,
  integer,
  nullable,
  number,
  object,
  string,
} from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

export default {
  data: object({
    top_stablecoins: array(
      object({
        symbol: string,
        name: string,
        peg_mechanism: nullable(string),
        market_cap_usd: number,
        change_1d_usd: nullable(number),
        change_1d_pct: nullable(number),
        change_7d_pct: nullable(number),
        peg_price: nullable(number),
        peg_deviation: nullable(number),
        peg_status: string,
        chain_count: integer,
      })
    ),
    peg_alerts: array(
      object({
        symbol: string,
        name: string,
        market_cap_usd: number,
        peg_price: number,
        peg_deviation: number,
        peg_status: string,
      })
    ),
    chain_distribution: array(
      object({ chain: string, stablecoin_mcap_usd: number, share_pct: number })
    ),
    summary: object({
      total_market_cap_usd: number,
      change_1d_usd: number,
      change_1d_pct: number,
      change_7d_pct: number,
      flow_direction: string,
      stablecoins_tracked: number,
      dominant_stablecoin: nullable(object({ symbol: string, share_pct: number })),
      minor_deviation_count: integer,
      major_deviation_count: integer,
    }),
    data_source: string,
  }),
  example: {
    top_stablecoins: [
      {
        symbol: 'USDT',
        name: 'Tether',
        peg_mechanism: 'fiat-backed',
        market_cap_usd: 183674790897.84,
        change_1d_usd: 435924712.93,
        change_1d_pct: 0.24,
        change_7d_pct: 0.89,
        peg_price: 1.0004,
        peg_deviation: 0.0004,
        peg_status: 'stable',
        chain_count: 8,
      },
      {
        symbol: 'USDC',
        name: 'USD Coin',
        peg_mechanism: 'fiat-backed',
        market_cap_usd: 76576684562.72,
        change_1d_usd: 173946515.55,
        change_1d_pct: 0.23,
        change_7d_pct: -0.81,
        peg_price: 1.0001,
        peg_deviation: 0.0001,
        peg_status: 'stable',
        chain_count: 8,
      },
    ],
    peg_alerts: [
      {
        symbol: 'FDUSD',
        name: 'First Digital USD',
        market_cap_usd: 1447249154.99,
        peg_price: 0.9878,
        peg_deviation: 0.0122,
        peg_status: 'minor_deviation',
      },
      {
        symbol: 'USD0',
        name: 'Usual USD',
        market_cap_usd: 539766706.26,
        peg_price: 0.9936,
        peg_deviation: 0.0064,
        peg_status: 'minor_deviation',
      },
    ],
    chain_distribution: [
      {
        chain: 'Ethereum',
        stablecoin_mcap_usd: 162972058584.2,
        share_pct: 55.68,
      },
      {
        chain: 'Tron',
        stablecoin_mcap_usd: 81374615094.09,
        share_pct: 27.8,
      },
    ],
    summary: {
      total_market_cap_usd: 292094777161.25,
      change_1d_usd: 587789033.52,
      change_1d_pct: 0.2,
      change_7d_pct: 0.26,
      flow_direction: 'minting',
      stablecoins_tracked: 19,
      dominant_stablecoin: {
        symbol: 'USDT',
        share_pct: 62.88,
      },
      minor_deviation_count: 2,
      major_deviation_count: 1,
    },
    data_source: 'DefiLlama stablecoins /stablecoins, /stablecoinchains',
  },
} satisfies BuiltinDeclaration
