import {
  array,
  integer,
  nullable,
  number,
  object,
  string,
} from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

/** One symbol's pressure: an alert, and each row of by_symbol. */
const symbolPressure = object({
  symbol: string,
  pressure_side: string,
  pressure_level: string,
  oi_drop_usd: number,
  oi_change_pct: number,
  price_change_pct: number,
  open_interest_usd: number,
  long_account_pct: number,
  short_account_pct: number,
  long_short_ratio: number,
  crowded_side: string,
})

/** The example's one symbol under pressure: its alert, and its row of by_symbol. */
const xrpUnderPressure = {
  symbol: 'XRPUSDT',
  pressure_side: 'shorts',
  pressure_level: 'elevated',
  oi_drop_usd: 32865030.89,
  oi_change_pct: -2.89,
  price_change_pct: 0.77,
  open_interest_usd: 1104787724.22,
  long_account_pct: 69,
  short_account_pct: 31,
  long_short_ratio: 2.2253,
  crowded_side: 'longs',
}

export default {
  data: object({
    summary: object({
      measure: string,
      window_minutes: integer,
      symbols_tracked: integer,
      total_oi_drop_usd: number,
      long_pressure_usd: number,
      short_pressure_usd: number,
      unattributed_usd: number,
      long_vs_short_ratio: nullable(number),
      dominant_side: string,
      symbols_under_pressure: number,
    }),
    alerts: array(symbolPressure),
    by_symbol: array(symbolPressure),
    market_overview: array(
      object({
        symbol: string,
        last_price: number,
        price_change_pct_24h: number,
        high_24h: number,
        low_24h: number,
        quote_volume_usd: number,
      })
    ),
    data_source: string,
  }),
  example: {
    summary: {
      measure: 'open_interest_drop',
      window_minutes: 60,
      symbols_tracked: 5,
      total_oi_drop_usd: 196201605.32,
      long_pressure_usd: 0,
      short_pressure_usd: 196201605.32,
      unattributed_usd: 0,
      long_vs_short_ratio: 0,
      dominant_side: 'shorts',
      symbols_under_pressure: 1,
    },
    alerts: [xrpUnderPressure],
    by_symbol: [
      {
        symbol: 'BTCUSDT',
        pressure_side: 'shorts',
        pressure_level: 'low',
        oi_drop_usd: 163336574.43,
        oi_change_pct: -1.99,
        price_change_pct: 0.39,
        open_interest_usd: 8027638517.92,
        long_account_pct: 45.52,
        short_account_pct: 54.48,
        long_short_ratio: 0.8356,
        crowded_side: 'balanced',
      },
      xrpUnderPressure,
    ],
    market_overview: [
      {
        symbol: 'BTCUSDT',
        last_price: 101059.4,
        price_change_pct_24h: 1.72,
        high_24h: 102878.5,
        low_24h: 97565.7,
        quote_volume_usd: 15276404730.11,
      },
      {
        symbol: 'ETHUSDT',
        last_price: 3501.88,
        price_change_pct_24h: 1.23,
        high_24h: 3564.91,
        low_24h: 3397.16,
        quote_volume_usd: 13288836885.96,
      },
    ],
    data_source:
      'Binance USD\u24c8-M futures: 24h tickers, open interest history, global long/short account ratio',
  },
} satisfies BuiltinDeclaration
