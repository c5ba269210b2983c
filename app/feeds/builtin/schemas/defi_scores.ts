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
    protocols: array(
      object({
        protocol: string,
        chain: string,
        category: string,
        tvl_usd: number,
        tvl_change_24h: number,
        tvl_change_7d: number,
        risk_score: number,
        opportunity_score: number,
        composite_score: number,
        recommendation: string,
        metrics: object({
          audit_count: integer,
          age_days: nullable(number),
          chain_count: integer,
          mcap_usd: nullable(number),
          mcap_to_tvl: nullable(number),
        }),
      })
    ),
    summary: object({
      protocols_scored: number,
      average_composite_score: number,
      recommendations: object({
        strong_buy: integer,
        favorable: integer,
        neutral: integer,
        caution: integer,
        strong_avoid: integer,
      }),
    }),
    data_source: string,
  }),
  example: {
    protocols: [
      {
        protocol: 'Kamino Lend',
        chain: 'Solana',
        category: 'Lending',
        tvl_usd: 2620462694.72,
        tvl_change_24h: 8.65,
        tvl_change_7d: 32.53,
        risk_score: 14.5,
        opportunity_score: 98.8,
        composite_score: 92.2,
        recommendation: 'strong_buy',
        metrics: {
          audit_count: 3,
          age_days: 1153,
          chain_count: 1,
          mcap_usd: 214544236.3,
          mcap_to_tvl: 0.082,
        },
      },
      {
        protocol: 'Morpho Blue',
        chain: 'Multi-Chain',
        category: 'Lending',
        tvl_usd: 5337694432.66,
        tvl_change_24h: 9.35,
        tvl_change_7d: 35.07,
        risk_score: 15.4,
        opportunity_score: 97.3,
        composite_score: 90.9,
        recommendation: 'strong_buy',
        metrics: {
          audit_count: 3,
          age_days: 1060,
          chain_count: 2,
          mcap_usd: 966545566.52,
          mcap_to_tvl: 0.181,
        },
      },
    ],
    summary: {
      protocols_scored: 56,
      average_composite_score: 67.9,
      recommendations: {
        strong_buy: 8,
        favorable: 36,
        neutral: 10,
        caution: 2,
        strong_avoid: 0,
      },
    },
    data_source: 'DefiLlama /protocols',
  },
} satisfies BuiltinDeclaration
