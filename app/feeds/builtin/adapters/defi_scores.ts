import { defineAdapter } from '#feeds/builtin/adapter'
import { round } from '#feeds/builtin/rounding'
import {
  NON_DEFI_CATEGORIES,
  defillamaProtocolsSchema,
} from '#feeds/builtin/upstream_schemas/defillama_protocols'

/** Below this TVL a protocol is too small to score meaningfully. */
const MIN_TVL_USD = 1_000_000
const TOP_N = 20
const DAY_MS = 86_400_000

type Recommendation = 'strong_buy' | 'favorable' | 'neutral' | 'caution' | 'strong_avoid'

const clamp = (value: number, low = 0, high = 100) => Math.min(high, Math.max(low, value))

/** 0 (safest) … 100: missing audits, young age, small TVL and TVL swings. */
function riskScore(input: {
  auditCount: number
  ageDays: number | null
  tvl: number
  change1d: number
  change7d: number
}) {
  const audit = [35, 20, 10, 0][Math.min(input.auditCount, 3)]
  let age = 0
  if (input.ageDays !== null) {
    if (input.ageDays < 30) age = 25
    else if (input.ageDays < 90) age = 15
    else if (input.ageDays < 365) age = 8
  }
  let size = 0
  if (input.tvl < 10e6) size = 20
  else if (input.tvl < 100e6) size = 12
  else if (input.tvl < 1e9) size = 6
  else if (input.tvl < 10e9) size = 2
  const volatility = Math.min(20, Math.abs(input.change1d) * 0.5 + Math.abs(input.change7d) * 0.25)
  return clamp(audit + age + size + volatility)
}

/** 0 … 100: TVL momentum (70 %) and market cap relative to TVL (30 %). */
function opportunityScore(input: { change1d: number; change7d: number; mcapToTvl: number | null }) {
  const momentum = clamp(50 + 2.5 * input.change7d + input.change1d)
  // A low market cap for the value a protocol holds reads as undervalued; unknown → neutral.
  const valuation = input.mcapToTvl === null ? 50 : clamp(100 - 50 * input.mcapToTvl)
  return 0.7 * momentum + 0.3 * valuation
}

function recommendationOf(composite: number): Recommendation {
  if (composite >= 80) return 'strong_buy'
  if (composite >= 60) return 'favorable'
  if (composite >= 40) return 'neutral'
  if (composite >= 20) return 'caution'
  return 'strong_avoid'
}

export default defineAdapter({
  upstreams: ['defillama'],
  async fetch({ http, now }) {
    const protocols = await http.getJson('defillama', '/protocols', defillamaProtocolsSchema)

    const scored = protocols
      .filter(
        (protocol) =>
          !NON_DEFI_CATEGORIES.has(protocol.category ?? '') &&
          typeof protocol.tvl === 'number' &&
          protocol.tvl >= MIN_TVL_USD
      )
      .map((protocol) => {
        const tvl = protocol.tvl!
        const change1d = protocol.change_1d ?? 0
        const change7d = protocol.change_7d ?? 0
        const auditCount = Math.max(0, Math.floor(protocol.audits ?? 0))
        // Protocols listed before DefiLlama recorded listing dates have no listedAt: they are old.
        const ageDays =
          typeof protocol.listedAt === 'number'
            ? Math.max(0, Math.floor((now() - protocol.listedAt * 1000) / DAY_MS))
            : null
        const mcapToTvl = protocol.mcap && protocol.mcap > 0 ? protocol.mcap / tvl : null

        const risk = riskScore({ auditCount, ageDays, tvl, change1d, change7d })
        const opportunity = opportunityScore({ change1d, change7d, mcapToTvl })
        const composite = round(0.5 * (100 - risk) + 0.5 * opportunity, 1)
        return {
          protocol: protocol.name,
          chain: protocol.chain ?? 'Unknown',
          category: protocol.category ?? 'Unknown',
          tvl_usd: round(tvl),
          tvl_change_24h: round(change1d),
          tvl_change_7d: round(change7d),
          risk_score: round(risk, 1),
          opportunity_score: round(opportunity, 1),
          composite_score: composite,
          recommendation: recommendationOf(composite),
          metrics: {
            audit_count: auditCount,
            age_days: ageDays,
            chain_count: protocol.chains?.length ?? 1,
            mcap_usd: protocol.mcap && protocol.mcap > 0 ? round(protocol.mcap) : null,
            mcap_to_tvl: mcapToTvl === null ? null : round(mcapToTvl, 3),
          },
        }
      })
      .sort((a, b) => b.composite_score - a.composite_score || b.tvl_usd - a.tvl_usd)

    const counts: Record<Recommendation, number> = {
      strong_buy: 0,
      favorable: 0,
      neutral: 0,
      caution: 0,
      strong_avoid: 0,
    }
    for (const protocol of scored) counts[protocol.recommendation]++
    const average = scored.length
      ? scored.reduce((sum, protocol) => sum + protocol.composite_score, 0) / scored.length
      : 0

    return {
      protocols: scored.slice(0, TOP_N),
      summary: {
        protocols_scored: scored.length,
        average_composite_score: round(average, 1),
        recommendations: counts,
      },
      data_source: 'DefiLlama /protocols',
    }
  },
})
