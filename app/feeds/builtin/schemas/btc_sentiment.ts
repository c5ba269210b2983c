import {
  array,
  boolean,
  integer,
  nullable,
  number,
  object,
  string,
  timestamp,
} from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

export default {
  data: object({
    fear_greed_index: integer,
    fear_greed_classification: string,
    fear_greed_previous: nullable(integer),
    fear_greed_change: nullable(integer),
    overall_label: string,
    overall_score: number,
    btc_price_usd: number,
    btc_24h_change: number,
    btc_dominance: number,
    market_trend: string,
    community_sentiment: object({
      score: nullable(number),
      votes_up_percentage: nullable(number),
    }),
    sources: object({
      x: object({ score: number, volume: number, available: boolean, followers: number }),
      reddit: object({
        score: number,
        volume: number,
        available: boolean,
        subscribers: number,
        active_accounts_48h: number,
      }),
      news: object({
        score: number,
        article_count: integer,
        headlines: array(string),
        available: boolean,
      }),
    }),
    index_date: timestamp,
    data_source: string,
  }),
  example: {
    fear_greed_index: 44,
    fear_greed_classification: 'Fear',
    fear_greed_previous: 45,
    fear_greed_change: -1,
    overall_label: 'fear',
    overall_score: -12,
    btc_price_usd: 98058.7,
    btc_24h_change: 3.48,
    btc_dominance: 55.21,
    market_trend: 'neutral',
    community_sentiment: {
      score: 59,
      votes_up_percentage: 79.39,
    },
    sources: {
      x: {
        score: 59,
        volume: 7011924,
        available: true,
        followers: 7011924,
      },
      reddit: {
        score: 0,
        volume: 0,
        available: false,
        subscribers: 0,
        active_accounts_48h: 0,
      },
      news: {
        score: 0,
        article_count: 0,
        headlines: [],
        available: false,
      },
    },
    index_date: '2026-11-25T00:00:00.000Z',
    data_source: 'alternative.me Fear & Greed Index, CoinGecko (bitcoin, global)',
  },
} satisfies BuiltinDeclaration
