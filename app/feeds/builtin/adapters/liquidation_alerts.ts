import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'
import { round } from '#feeds/builtin/rounding'

/**
 * Binance retired its public liquidation history (/fapi/v1/allForceOrders)
 * and /fapi/v1/forceOrders only returns the caller's own orders, so this
 * feed measures deleveraging instead: open interest that disappeared over
 * the last hour, attributed to longs when the price fell and to shorts when
 * it rose. It includes voluntary closes and is named accordingly.
 */

const TRACKED_SYMBOLS = 5
const OVERVIEW_SYMBOLS = 10
/** 13 five-minute points span the last hour. */
const PERIOD = '5m'
const POINTS = 13
const WINDOW_MINUTES = 60
const CROWDED_SHARE = 0.6
/** Below this price move (%) a drop is not attributed to either side. */
const ATTRIBUTION_MIN_MOVE = 0.25
/** [minimum open-interest drop %, minimum price move %] per pressure level. */
const LEVELS = [
  { level: 'high', oiDrop: 3, priceMove: 1 },
  { level: 'elevated', oiDrop: 1, priceMove: 0.5 },
] as const

const tickersSchema = vine.create(
  vine.array(
    vine
      .object({
        symbol: vine.string(),
        lastPrice: vine.number(),
        priceChangePercent: vine.number(),
        highPrice: vine.number(),
        lowPrice: vine.number(),
        quoteVolume: vine.number().min(0),
      })
      .allowUnknownProperties()
  )
)
const openInterestSchema = vine.create(
  vine
    .array(
      vine
        .object({
          sumOpenInterest: vine.number().positive(),
          sumOpenInterestValue: vine.number().positive(),
          timestamp: vine.number(),
        })
        .allowUnknownProperties()
    )
    .minLength(2)
)
const accountsSchema = vine.create(
  vine
    .array(
      vine
        .object({
          longAccount: vine.number().min(0).max(1),
          shortAccount: vine.number().min(0).max(1),
          longShortRatio: vine.number().min(0),
          timestamp: vine.number(),
        })
        .allowUnknownProperties()
    )
    .minLength(1)
)

type Side = 'longs' | 'shorts' | 'mixed' | 'none'

const percentChange = (from: number, to: number) => ((to - from) / from) * 100

/** USDⓈ-M perpetuals (delivery contracts carry a date suffix: BTCUSDT_261225). */
const isUsdtPerpetual = (symbol: string) => /^[A-Z0-9]+USDT$/.test(symbol)

function pressureLevel(oiChangePct: number, priceChangePct: number) {
  const drop = -oiChangePct
  const move = Math.abs(priceChangePct)
  return LEVELS.find((step) => drop >= step.oiDrop && move >= step.priceMove)?.level ?? 'low'
}

function crowdedSide(longShare: number, shortShare: number) {
  if (longShare >= CROWDED_SHARE) return 'longs'
  if (shortShare >= CROWDED_SHARE) return 'shorts'
  return 'balanced'
}

export default defineAdapter({
  upstreams: ['binance_futures'],
  async fetch({ http }) {
    const allTickers = await http.getJson('binance_futures', '/fapi/v1/ticker/24hr', tickersSchema)
    const tickers = allTickers
      .filter((ticker) => isUsdtPerpetual(ticker.symbol))
      .sort((a, b) => b.quoteVolume - a.quoteVolume)

    const tracked = tickers.slice(0, TRACKED_SYMBOLS)
    const bySymbol = await Promise.all(
      tracked.map(async (ticker) => {
        const query = `symbol=${ticker.symbol}&period=${PERIOD}`
        const [history, accounts] = await Promise.all([
          http.getJson(
            'binance_futures',
            `/futures/data/openInterestHist?${query}&limit=${POINTS}`,
            openInterestSchema
          ),
          http.getJson(
            'binance_futures',
            `/futures/data/globalLongShortAccountRatio?${query}&limit=1`,
            accountsSchema
          ),
        ])
        const points = [...history].sort((a, b) => a.timestamp - b.timestamp)
        const first = points[0]
        const last = points[points.length - 1]
        // Open-interest value / contracts = the mark price at that point.
        const priceThen = first.sumOpenInterestValue / first.sumOpenInterest
        const priceNow = last.sumOpenInterestValue / last.sumOpenInterest
        const oiChangePct = percentChange(first.sumOpenInterest, last.sumOpenInterest)
        const priceChangePct = percentChange(priceThen, priceNow)
        const dropped = Math.max(0, first.sumOpenInterest - last.sumOpenInterest)
        const side: Side =
          dropped === 0
            ? 'none'
            : Math.abs(priceChangePct) < ATTRIBUTION_MIN_MOVE
              ? 'mixed'
              : priceChangePct < 0
                ? 'longs'
                : 'shorts'
        const ratio = accounts[accounts.length - 1]

        return {
          symbol: ticker.symbol,
          pressure_side: side,
          pressure_level: dropped === 0 ? 'low' : pressureLevel(oiChangePct, priceChangePct),
          oi_drop_usd: round(dropped * priceNow),
          oi_change_pct: round(oiChangePct),
          price_change_pct: round(priceChangePct),
          open_interest_usd: round(last.sumOpenInterestValue),
          long_account_pct: round(ratio.longAccount * 100),
          short_account_pct: round(ratio.shortAccount * 100),
          long_short_ratio: round(ratio.longShortRatio, 4),
          crowded_side: crowdedSide(ratio.longAccount, ratio.shortAccount),
        }
      })
    )
    bySymbol.sort((a, b) => b.oi_drop_usd - a.oi_drop_usd)

    const pressureOf = (side: Side) =>
      bySymbol
        .filter((entry) => entry.pressure_side === side)
        .reduce((sum, entry) => sum + entry.oi_drop_usd, 0)
    const longPressure = pressureOf('longs')
    const shortPressure = pressureOf('shorts')
    const unattributed = pressureOf('mixed')

    return {
      summary: {
        measure: 'open_interest_drop',
        window_minutes: WINDOW_MINUTES,
        symbols_tracked: bySymbol.length,
        total_oi_drop_usd: round(longPressure + shortPressure + unattributed),
        long_pressure_usd: round(longPressure),
        short_pressure_usd: round(shortPressure),
        unattributed_usd: round(unattributed),
        long_vs_short_ratio: shortPressure > 0 ? round(longPressure / shortPressure) : null,
        dominant_side:
          longPressure === shortPressure
            ? 'none'
            : longPressure > shortPressure
              ? 'longs'
              : 'shorts',
        symbols_under_pressure: bySymbol.filter((entry) => entry.pressure_level !== 'low').length,
      },
      alerts: bySymbol.filter((entry) => entry.pressure_level !== 'low'),
      by_symbol: bySymbol,
      market_overview: tickers.slice(0, OVERVIEW_SYMBOLS).map((ticker) => ({
        symbol: ticker.symbol,
        last_price: ticker.lastPrice,
        price_change_pct_24h: round(ticker.priceChangePercent),
        high_24h: ticker.highPrice,
        low_24h: ticker.lowPrice,
        quote_volume_usd: round(ticker.quoteVolume),
      })),
      data_source:
        'Binance USDⓈ-M futures: 24h tickers, open interest history, global long/short account ratio',
    }
  },
})
