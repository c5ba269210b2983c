import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'
import { round } from '#feeds/builtin/rounding'
import { defillamaProtocolsSchema } from '#feeds/builtin/upstream_schemas/defillama_protocols'

const chainsSchema = vine.create(
  vine.array(
    vine
      .object({
        name: vine.string(),
        tvl: vine.number().nullable().optional(),
        tokenSymbol: vine.string().nullable().optional(),
      })
      .allowUnknownProperties()
  )
)

/** DefiLlama's bridge categories (lock-and-mint, liquidity and canonical bridges). */
const BRIDGE_CATEGORIES = new Set(['Bridge', 'Cross Chain Bridge', 'Canonical Bridge'])
/** chainTvls keys that are not chains: "Ethereum-borrowed", "staking", "pool2", … */
const NON_CHAIN_KEYS = new Set([
  'staking',
  'pool2',
  'borrowed',
  'vesting',
  'doublecounted',
  'liquidstaking',
  'dcAndLsOverlap',
  'offers',
  'treasury',
])
const TOP_CHAINS = 25
const TOP_BRIDGES = 10
const TOP_BRIDGE_CHAINS = 10

const TIERS = [
  { tier: 'over_10b', min: 10e9 },
  { tier: '1b_to_10b', min: 1e9 },
  { tier: '100m_to_1b', min: 100e6 },
  { tier: '10m_to_100m', min: 10e6 },
  { tier: 'under_10m', min: 0 },
] as const

const share = (part: number, whole: number) => (whole > 0 ? round((part / whole) * 100) : 0)
/** The USD change behind a percentage change of the current value. */
const impliedChange = (current: number, pct: number) =>
  pct > -100 ? current - current / (1 + pct / 100) : 0

function concentrationOf(hhi: number) {
  if (hhi > 2_500) return 'highly_concentrated'
  if (hhi > 1_500) return 'moderately_concentrated'
  return 'diversified'
}

export default defineAdapter({
  upstreams: ['defillama'],
  async fetch({ http }) {
    const [chainList, protocols] = await Promise.all([
      http.getJson('defillama', '/v2/chains', chainsSchema),
      http.getJson('defillama', '/protocols', defillamaProtocolsSchema),
    ])

    const chains = chainList
      .filter((chain) => (chain.tvl ?? 0) > 0)
      .map((chain) => ({ name: chain.name, tvl: chain.tvl!, symbol: chain.tokenSymbol ?? null }))
      .sort((a, b) => b.tvl - a.tvl)
    const total = chains.reduce((sum, chain) => sum + chain.tvl, 0)
    const topShare = (count: number) =>
      share(
        chains.slice(0, count).reduce((sum, chain) => sum + chain.tvl, 0),
        total
      )
    // Herfindahl–Hirschman index over the chains' TVL shares in percent (0 … 10 000).
    const hhi = chains.reduce((sum, chain) => sum + ((chain.tvl / total) * 100) ** 2, 0)

    const tiers = Object.fromEntries(
      TIERS.map(({ tier, min }, index) => {
        const max = index === 0 ? Number.POSITIVE_INFINITY : TIERS[index - 1].min
        const members = chains.filter((chain) => chain.tvl >= min && chain.tvl < max)
        const tvl = members.reduce((sum, chain) => sum + chain.tvl, 0)
        return [tier, { count: members.length, tvl_usd: round(tvl), share_pct: share(tvl, total) }]
      })
    )

    const bridges = protocols
      .filter(
        (protocol) => BRIDGE_CATEGORIES.has(protocol.category ?? '') && (protocol.tvl ?? 0) > 0
      )
      .map((protocol) => ({ ...protocol, tvl: protocol.tvl!, change1d: protocol.change_1d ?? 0 }))
      .sort((a, b) => b.tvl - a.tvl)
    const bridgeTvl = bridges.reduce((sum, bridge) => sum + bridge.tvl, 0)
    const bridgeChange = bridges.reduce(
      (sum, bridge) => sum + impliedChange(bridge.tvl, bridge.change1d),
      0
    )

    // Where bridged value is held: the bridges' TVL per chain.
    const lockedByChain = new Map<string, { tvl: number; bridges: number }>()
    for (const bridge of bridges) {
      for (const [key, value] of Object.entries(bridge.chainTvls ?? {})) {
        if (key.includes('-') || NON_CHAIN_KEYS.has(key) || value <= 0) continue
        const entry = lockedByChain.get(key) ?? { tvl: 0, bridges: 0 }
        entry.tvl += value
        entry.bridges += 1
        lockedByChain.set(key, entry)
      }
    }
    const lockedTotal = [...lockedByChain.values()].reduce((sum, entry) => sum + entry.tvl, 0)

    return {
      chain_tvl_rankings: chains.slice(0, TOP_CHAINS).map((chain, index) => ({
        rank: index + 1,
        chain: chain.name,
        token_symbol: chain.symbol,
        tvl_usd: round(chain.tvl),
        share_pct: share(chain.tvl, total),
      })),
      tvl_tiers: tiers,
      ecosystem_diversity: {
        total_tvl_usd: round(total),
        chain_count: chains.length,
        top_chain: chains[0]?.name ?? null,
        top_chain_share_pct: topShare(1),
        top_5_concentration_pct: topShare(5),
        top_10_concentration_pct: topShare(10),
        hhi: round(hhi),
        effective_chain_count: hhi > 0 ? round(10_000 / hhi) : 0,
        concentration: concentrationOf(hhi),
      },
      top_bridges: bridges.slice(0, TOP_BRIDGES).map((bridge) => ({
        name: bridge.name,
        category: bridge.category!,
        chain: bridge.chain ?? 'Unknown',
        chain_count: bridge.chains?.length ?? 1,
        tvl_usd: round(bridge.tvl),
        tvl_change_24h: round(bridge.change1d),
        tvl_change_7d:
          bridge.change_7d === null || bridge.change_7d === undefined
            ? null
            : round(bridge.change_7d),
        tvl_change_24h_usd: round(impliedChange(bridge.tvl, bridge.change1d)),
      })),
      bridge_tvl_by_chain: [...lockedByChain.entries()]
        .sort((a, b) => b[1].tvl - a[1].tvl)
        .slice(0, TOP_BRIDGE_CHAINS)
        .map(([chain, entry]) => ({
          chain,
          bridge_tvl_usd: round(entry.tvl),
          share_pct: share(entry.tvl, lockedTotal),
          bridges: entry.bridges,
        })),
      bridge_summary: {
        bridges_tracked: bridges.length,
        total_bridge_tvl_usd: round(bridgeTvl),
        tvl_change_24h_usd: round(bridgeChange),
        tvl_change_24h_pct: share(bridgeChange, bridgeTvl - bridgeChange),
        direction: bridgeChange >= 0 ? 'inflow' : 'outflow',
      },
      data_source: 'DefiLlama /v2/chains, /protocols (bridge categories)',
    }
  },
})
