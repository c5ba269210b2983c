import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'
import { round } from '#feeds/builtin/rounding'

/** A supply breakdown by peg currency, e.g. { peggedUSD: 1.2e9 }; empty for brand-new coins. */
const pegged = () => vine.record(vine.number()).optional()

const stablecoinsSchema = vine.create(
  vine
    .object({
      peggedAssets: vine.array(
        vine
          .object({
            name: vine.string(),
            symbol: vine.string(),
            pegType: vine.string(),
            pegMechanism: vine.string().nullable().optional(),
            circulating: pegged(),
            circulatingPrevDay: pegged(),
            circulatingPrevWeek: pegged(),
            chains: vine.array(vine.string()).optional(),
            price: vine.number().nullable().optional(),
          })
          .allowUnknownProperties()
      ),
    })
    .allowUnknownProperties()
)

const chainsSchema = vine.create(
  vine.array(
    vine
      .object({
        name: vine.string(),
        totalCirculatingUSD: pegged(),
      })
      .allowUnknownProperties()
  )
)

const TOP_STABLECOINS = 10
const TOP_CHAINS = 15
/** Depegs of coins smaller than this are noise, not market events. */
const PEG_ALERT_MIN_MCAP_USD = 10_000_000
/** A 24h supply change within ±0.1 % is reported as flat. */
const FLAT_PCT = 0.1

type PegStatus = 'stable' | 'minor_deviation' | 'major_deviation' | 'unknown'

const pctChange = (current: number, previous: number | undefined) =>
  previous && previous > 0 ? round(((current - previous) / previous) * 100) : null

function pegStatusOf(deviation: number | null): PegStatus {
  if (deviation === null) return 'unknown'
  if (deviation <= 0.005) return 'stable'
  if (deviation <= 0.02) return 'minor_deviation'
  return 'major_deviation'
}

export default defineAdapter({
  upstreams: ['defillama_stablecoins'],
  async fetch({ http }) {
    const [{ peggedAssets }, chains] = await Promise.all([
      http.getJson('defillama_stablecoins', '/stablecoins?includePrices=true', stablecoinsSchema),
      http.getJson('defillama_stablecoins', '/stablecoinchains', chainsSchema),
    ])

    // Only USD-pegged coins: their supply is in USD and their peg is $1.
    const usdCoins = peggedAssets
      .filter((asset) => asset.pegType === 'peggedUSD' && (asset.circulating?.peggedUSD ?? 0) > 0)
      .map((asset) => {
        const supply = asset.circulating!.peggedUSD
        const price = typeof asset.price === 'number' ? asset.price : null
        const deviation = price === null ? null : Math.abs(price - 1)
        return {
          symbol: asset.symbol,
          name: asset.name,
          peg_mechanism: asset.pegMechanism ?? null,
          market_cap_usd: round(supply),
          change_1d_usd: asset.circulatingPrevDay?.peggedUSD
            ? round(supply - asset.circulatingPrevDay.peggedUSD)
            : null,
          change_1d_pct: pctChange(supply, asset.circulatingPrevDay?.peggedUSD),
          change_7d_pct: pctChange(supply, asset.circulatingPrevWeek?.peggedUSD),
          peg_price: price === null ? null : round(price, 4),
          peg_deviation: deviation === null ? null : round(deviation, 4),
          peg_status: pegStatusOf(deviation),
          chain_count: asset.chains?.length ?? 0,
          previous: {
            day: asset.circulatingPrevDay?.peggedUSD,
            week: asset.circulatingPrevWeek?.peggedUSD,
          },
        }
      })
      .sort((a, b) => b.market_cap_usd - a.market_cap_usd)

    const total = usdCoins.reduce((sum, coin) => sum + coin.market_cap_usd, 0)
    // Changes compare only coins that existed a day (a week) ago, so launches do not count as growth.
    const comparable = (key: 'day' | 'week') => {
      const withHistory = usdCoins.filter((coin) => coin.previous[key])
      const now = withHistory.reduce((sum, coin) => sum + coin.market_cap_usd, 0)
      const before = withHistory.reduce((sum, coin) => sum + coin.previous[key]!, 0)
      return { now, before }
    }
    const day = comparable('day')
    const week = comparable('week')
    const change1dPct = pctChange(day.now, day.before) ?? 0
    const publicCoin = ({ previous: _previous, ...coin }: (typeof usdCoins)[number]) => coin

    const chainTotals = chains
      .map((chain) => ({
        chain: chain.name,
        total: Object.values(chain.totalCirculatingUSD ?? {}).reduce(
          (sum, value) => sum + value,
          0
        ),
      }))
      .filter((chain) => chain.total > 0)
      .sort((a, b) => b.total - a.total)
    const allChains = chainTotals.reduce((sum, chain) => sum + chain.total, 0)

    const pegAlerts = usdCoins.filter(
      (coin) =>
        coin.market_cap_usd >= PEG_ALERT_MIN_MCAP_USD &&
        (coin.peg_status === 'minor_deviation' || coin.peg_status === 'major_deviation')
    )
    const leader = usdCoins[0]

    return {
      top_stablecoins: usdCoins.slice(0, TOP_STABLECOINS).map(publicCoin),
      peg_alerts: pegAlerts.map((coin) => ({
        symbol: coin.symbol,
        name: coin.name,
        market_cap_usd: coin.market_cap_usd,
        peg_price: coin.peg_price,
        peg_deviation: coin.peg_deviation,
        peg_status: coin.peg_status,
      })),
      chain_distribution: chainTotals.slice(0, TOP_CHAINS).map((chain) => ({
        chain: chain.chain,
        stablecoin_mcap_usd: round(chain.total),
        share_pct: allChains > 0 ? round((chain.total / allChains) * 100) : 0,
      })),
      summary: {
        total_market_cap_usd: round(total),
        change_1d_usd: round(day.now - day.before),
        change_1d_pct: change1dPct,
        change_7d_pct: pctChange(week.now, week.before) ?? 0,
        flow_direction:
          Math.abs(change1dPct) < FLAT_PCT ? 'flat' : change1dPct > 0 ? 'minting' : 'burning',
        stablecoins_tracked: usdCoins.length,
        dominant_stablecoin: leader
          ? { symbol: leader.symbol, share_pct: round((leader.market_cap_usd / total) * 100) }
          : null,
        minor_deviation_count: pegAlerts.filter((coin) => coin.peg_status === 'minor_deviation')
          .length,
        major_deviation_count: pegAlerts.filter((coin) => coin.peg_status === 'major_deviation')
          .length,
      },
      data_source: 'DefiLlama stablecoins /stablecoins, /stablecoinchains',
    }
  },
})
