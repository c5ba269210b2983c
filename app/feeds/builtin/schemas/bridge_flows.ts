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
    chain_tvl_rankings: array(
      object({
        rank: integer,
        chain: string,
        token_symbol: nullable(string),
        tvl_usd: number,
        share_pct: number,
      })
    ),
    tvl_tiers: object({
      'over_10b': object({ count: integer, tvl_usd: number, share_pct: number }),
      '1b_to_10b': object({ count: integer, tvl_usd: number, share_pct: number }),
      '100m_to_1b': object({ count: integer, tvl_usd: number, share_pct: number }),
      '10m_to_100m': object({ count: integer, tvl_usd: number, share_pct: number }),
      'under_10m': object({ count: integer, tvl_usd: number, share_pct: number }),
    }),
    ecosystem_diversity: object({
      total_tvl_usd: number,
      chain_count: integer,
      top_chain: nullable(string),
      top_chain_share_pct: number,
      top_5_concentration_pct: number,
      top_10_concentration_pct: number,
      hhi: number,
      effective_chain_count: number,
      concentration: string,
    }),
    top_bridges: array(
      object({
        name: string,
        category: string,
        chain: string,
        chain_count: integer,
        tvl_usd: number,
        tvl_change_24h: number,
        tvl_change_7d: nullable(number),
        tvl_change_24h_usd: number,
      })
    ),
    bridge_tvl_by_chain: array(
      object({ chain: string, bridge_tvl_usd: number, share_pct: number, bridges: integer })
    ),
    bridge_summary: object({
      bridges_tracked: number,
      total_bridge_tvl_usd: number,
      tvl_change_24h_usd: number,
      tvl_change_24h_pct: number,
      direction: string,
    }),
    data_source: string,
  }),
  example: {
    chain_tvl_rankings: [
      {
        rank: 1,
        chain: 'Ethereum',
        token_symbol: 'ETH',
        tvl_usd: 64673822876.46,
        share_pct: 58.51,
      },
      {
        rank: 2,
        chain: 'Solana',
        token_symbol: 'SOL',
        tvl_usd: 9428502639.65,
        share_pct: 8.53,
      },
    ],
    tvl_tiers: {
      'over_10b': {
        count: 1,
        tvl_usd: 64673822876.46,
        share_pct: 58.51,
      },
      '1b_to_10b': {
        count: 10,
        tvl_usd: 39629143794.72,
        share_pct: 35.85,
      },
      '100m_to_1b': {
        count: 15,
        tvl_usd: 5634369136.09,
        share_pct: 5.1,
      },
      '10m_to_100m': {
        count: 11,
        tvl_usd: 582739396.99,
        share_pct: 0.53,
      },
      'under_10m': {
        count: 4,
        tvl_usd: 20895632.74,
        share_pct: 0.02,
      },
    },
    ecosystem_diversity: {
      total_tvl_usd: 110540970837,
      chain_count: 41,
      top_chain: 'Ethereum',
      top_chain_share_pct: 58.51,
      top_5_concentration_pct: 82.41,
      top_10_concentration_pct: 93.36,
      hhi: 3607.33,
      effective_chain_count: 2.77,
      concentration: 'highly_concentrated',
    },
    top_bridges: [
      {
        name: 'Hyperliquid Bridge',
        category: 'Bridge',
        chain: 'Arbitrum',
        chain_count: 1,
        tvl_usd: 4206548342.23,
        tvl_change_24h: 8.17,
        tvl_change_7d: 39.47,
        tvl_change_24h_usd: 317771423.25,
      },
      {
        name: 'Portal',
        category: 'Bridge',
        chain: 'Multi-Chain',
        chain_count: 5,
        tvl_usd: 1438339845,
        tvl_change_24h: -2.19,
        tvl_change_7d: 3.33,
        tvl_change_24h_usd: -32269936.41,
      },
    ],
    bridge_tvl_by_chain: [
      {
        chain: 'Arbitrum',
        bridge_tvl_usd: 4331278951.98,
        share_pct: 70.52,
        bridges: 8,
      },
      {
        chain: 'Ethereum',
        bridge_tvl_usd: 914430186.71,
        share_pct: 14.89,
        bridges: 7,
      },
    ],
    bridge_summary: {
      bridges_tracked: 9,
      total_bridge_tvl_usd: 6141556076.97,
      tvl_change_24h_usd: 274472904.93,
      tvl_change_24h_pct: 4.68,
      direction: 'inflow',
    },
    data_source: 'DefiLlama /v2/chains, /protocols (bridge categories)',
  },
} satisfies BuiltinDeclaration
