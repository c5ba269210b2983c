import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'
import { round } from '#feeds/builtin/rounding'
import {
  NON_DEFI_CATEGORIES,
  defillamaProtocolsSchema,
} from '#feeds/builtin/upstream_schemas/defillama_protocols'

const hacksSchema = vine.create(
  vine.array(
    vine
      .object({
        date: vine.number(),
        name: vine.string(),
        classification: vine.string().nullable().optional(),
        technique: vine.string().nullable().optional(),
        amount: vine.number().nullable().optional(),
        chain: vine.array(vine.string()).nullable().optional(),
        bridgeHack: vine.boolean().nullable().optional(),
        returnedFunds: vine.number().nullable().optional(),
        // The real API mixes string and numeric ids.
        defillamaId: vine.unionOfTypes([vine.string(), vine.number()]).nullable().optional(),
      })
      .allowUnknownProperties()
  )
)

const DAY_MS = 86_400_000
/** Protocols below this TVL are too small to be worth assessing. */
const MIN_TVL_USD = 100_000
const RECENT_INCIDENTS = 15
const TOP_RISKY = 20

type RiskLevel = 'critical' | 'high' | 'medium' | 'low'

function levelOf(points: number): RiskLevel {
  if (points >= 6) return 'critical'
  if (points >= 4) return 'high'
  if (points >= 2) return 'medium'
  return 'low'
}

export default defineAdapter({
  upstreams: ['defillama'],
  async fetch({ http, now }) {
    const [protocols, hacks] = await Promise.all([
      http.getJson('defillama', '/protocols', defillamaProtocolsSchema),
      http.getJson('defillama', '/hacks', hacksSchema),
    ])
    const nowMs = now()
    const daysAgo = (unixSeconds: number) => (nowMs - unixSeconds * 1000) / DAY_MS

    const incidents = hacks
      .filter((hack) => daysAgo(hack.date) >= 0)
      .sort((a, b) => b.date - a.date)
    const within = (days: number) => incidents.filter((hack) => daysAgo(hack.date) <= days)
    const losses = (list: typeof incidents) =>
      round(list.reduce((sum, hack) => sum + (hack.amount ?? 0), 0))
    const last30 = within(30)
    const last90 = within(90)
    const last365 = within(365)

    // Protocols with an incident in the last year, by DefiLlama protocol id.
    const exploited = new Set(
      last365.flatMap((hack) => (hack.defillamaId ? [String(hack.defillamaId)] : []))
    )

    const assessed = protocols
      .filter(
        (protocol) =>
          !NON_DEFI_CATEGORIES.has(protocol.category ?? '') && (protocol.tvl ?? 0) > MIN_TVL_USD
      )
      .map((protocol) => {
        const tvl = protocol.tvl!
        const factors: string[] = []
        let points = 0
        if (!protocol.audits || protocol.audits <= 0) {
          factors.push('no_audit')
          points += 3
        }
        if (typeof protocol.listedAt === 'number') {
          const age = daysAgo(protocol.listedAt)
          if (age < 30) {
            factors.push('listed_under_30_days')
            points += 3
          } else if (age < 90) {
            factors.push('listed_under_90_days')
            points += 2
          }
        }
        if (tvl < 1_000_000) {
          factors.push('tvl_under_1m')
          points += 1
        }
        const change1d = protocol.change_1d ?? 0
        const change7d = protocol.change_7d ?? 0
        if (change1d <= -20 || change7d <= -30) {
          factors.push('sharp_tvl_drop')
          points += 3
        }
        if (protocol.id !== undefined && exploited.has(protocol.id)) {
          factors.push('exploited_last_12_months')
          points += 2
        }
        return {
          protocol: protocol.name,
          category: protocol.category ?? 'Unknown',
          chain: protocol.chain ?? 'Unknown',
          tvl_usd: round(tvl),
          tvl_change_24h: round(change1d),
          tvl_change_7d: round(change7d),
          risk_points: points,
          risk_level: levelOf(points),
          risk_factors: factors,
        }
      })

    const risky = assessed
      .filter((protocol) => protocol.risk_level === 'critical' || protocol.risk_level === 'high')
      .sort((a, b) => b.risk_points - a.risk_points || b.tvl_usd - a.tvl_usd)
    const criticalCount = risky.filter((protocol) => protocol.risk_level === 'critical').length

    const losses30 = losses(last30)
    let overall: RiskLevel = 'low'
    if (losses30 >= 100_000_000 || criticalCount >= 10) overall = 'critical'
    else if (losses30 >= 25_000_000 || last30.length >= 5) overall = 'high'
    else if (last30.length >= 1 || criticalCount >= 1) overall = 'medium'

    return {
      overall_risk: overall,
      recent_incidents: incidents.slice(0, RECENT_INCIDENTS).map((hack) => ({
        name: hack.name,
        date: new Date(hack.date * 1000).toISOString(),
        days_ago: Math.floor(daysAgo(hack.date)),
        amount_usd: hack.amount ?? null,
        returned_usd: hack.returnedFunds ?? null,
        chains: hack.chain ?? [],
        classification: hack.classification ?? null,
        technique: hack.technique ?? null,
        bridge_hack: hack.bridgeHack ?? false,
      })),
      high_risk_protocols: risky.slice(0, TOP_RISKY),
      summary: {
        incidents_30d: last30.length,
        losses_30d_usd: losses30,
        incidents_90d: last90.length,
        losses_90d_usd: losses(last90),
        losses_365d_usd: losses(last365),
        protocols_assessed: assessed.length,
        high_risk_count: risky.length - criticalCount,
        critical_risk_count: criticalCount,
      },
      data_source: 'DefiLlama /protocols, /hacks',
    }
  },
})
