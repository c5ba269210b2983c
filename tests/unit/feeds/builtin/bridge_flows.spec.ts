import { test } from '@japa/runner'
import adapter from '#feeds/builtin/adapters/bridge_flows'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

interface RawChain {
  name: string
  tvl: number
}

interface RawProtocol {
  name: string
  category: string
  tvl: number
}

const round = (value: number) => Number(value.toFixed(2))
const BRIDGE_CATEGORIES = ['Bridge', 'Cross Chain Bridge', 'Canonical Bridge']

test.group('Built-in feed bridge-flows', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const run = () => upstreams.run(adapter)
  const raw = async <T>(path: string) =>
    fetch(`${upstreams.simulator().url}/defillama${path}`).then((response) =>
      response.json()
    ) as Promise<T>
  const chainsByTvl = async () => {
    const chains = await raw<RawChain[]>('/v2/chains')
    return chains.sort((a, b) => b.tvl - a.tvl)
  }

  test('ranks the 25 largest chains by TVL with their share of all chains', async ({ assert }) => {
    const data = (await run()) as any
    const chains = await chainsByTvl()
    const total = chains.reduce((sum, chain) => sum + chain.tvl, 0)

    assert.lengthOf(data.chain_tvl_rankings, 25)
    assert.deepEqual(
      data.chain_tvl_rankings.map((entry: any) => entry.chain),
      chains.slice(0, 25).map((chain) => chain.name)
    )
    assert.deepEqual(data.chain_tvl_rankings[0], {
      rank: 1,
      chain: 'Ethereum',
      token_symbol: 'ETH',
      tvl_usd: round(chains[0].tvl),
      share_pct: round((chains[0].tvl / total) * 100),
    })
  })

  test('measures concentration as the top-5 share and the Herfindahl index', async ({ assert }) => {
    const data = (await run()) as any
    const chains = await chainsByTvl()
    const total = chains.reduce((sum, chain) => sum + chain.tvl, 0)
    const top5 = chains.slice(0, 5).reduce((sum, chain) => sum + chain.tvl, 0)
    const hhi = chains.reduce((sum, chain) => sum + ((chain.tvl / total) * 100) ** 2, 0)

    const diversity = data.ecosystem_diversity
    assert.equal(diversity.chain_count, chains.length)
    assert.equal(diversity.top_5_concentration_pct, round((top5 / total) * 100))
    assert.equal(diversity.hhi, round(hhi))
    // Ethereum alone holds more than half: above 2 500 is highly concentrated.
    assert.equal(diversity.concentration, 'highly_concentrated')

    const tiers = Object.values(data.tvl_tiers) as { count: number }[]
    assert.equal(
      tiers.reduce((sum, tier) => sum + tier.count, 0),
      chains.length
    )
    assert.equal(data.tvl_tiers.over_10b.count, 1)
  })

  test('lists only bridge protocols as top bridges, largest first', async ({ assert }) => {
    const data = (await run()) as any
    const protocols = await raw<RawProtocol[]>('/protocols')
    const bridges = protocols
      .filter((protocol) => BRIDGE_CATEGORIES.includes(protocol.category))
      .sort((a, b) => b.tvl - a.tvl)

    assert.deepEqual(
      data.top_bridges.map((bridge: any) => bridge.name),
      bridges.slice(0, 10).map((bridge) => bridge.name)
    )
    assert.equal(data.top_bridges[0].tvl_usd, round(bridges[0].tvl))
    assert.equal(data.bridge_summary.bridges_tracked, bridges.length)
    assert.closeTo(
      data.bridge_summary.total_bridge_tvl_usd,
      bridges.reduce((sum, bridge) => sum + bridge.tvl, 0),
      0.01
    )
    const chainShares = data.bridge_tvl_by_chain.map((entry: any) => entry.share_pct)
    assert.isAtMost(
      chainShares.reduce((sum: number, value: number) => sum + value, 0),
      100.01
    )
  })

  test('a DefiLlama outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('defillama', 'status_503')
    await assert.rejects(() => run(), UpstreamFailure)
  })
})
