import { test } from '@japa/runner'
import adapter from '#feeds/builtin/adapters/stablecoin_flows'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

interface RawAsset {
  symbol: string
  pegType: string
  circulating: Record<string, number>
  circulatingPrevDay: Record<string, number>
  price: number | null
}

interface RawChain {
  name: string
  totalCirculatingUSD: Record<string, number>
}

const round = (value: number, decimals = 2) => Number(value.toFixed(decimals))

test.group('Built-in feed stablecoin-flows', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const run = () => upstreams.run(adapter)
  const raw = async <T>(path: string) =>
    fetch(`${upstreams.simulator().url}/defillama_stablecoins${path}`).then((response) =>
      response.json()
    ) as Promise<T>

  test('lists the ten largest USD stablecoins with supply changes and peg data', async ({
    assert,
  }) => {
    const data = (await run()) as any
    const { peggedAssets } = await raw<{ peggedAssets: RawAsset[] }>(
      '/stablecoins?includePrices=true'
    )

    assert.lengthOf(data.top_stablecoins, 10)
    const caps = data.top_stablecoins.map((coin: any) => coin.market_cap_usd)
    assert.deepEqual(
      caps,
      [...caps].sort((a, b) => b - a)
    )
    assert.notInclude(
      data.top_stablecoins.map((coin: any) => coin.symbol),
      'EURC'
    )

    const usdt = data.top_stablecoins[0]
    const source = peggedAssets.find((asset) => asset.symbol === 'USDT')!
    assert.equal(usdt.symbol, 'USDT')
    assert.equal(usdt.market_cap_usd, round(source.circulating.peggedUSD))
    assert.equal(
      usdt.change_1d_pct,
      round(
        ((source.circulating.peggedUSD - source.circulatingPrevDay.peggedUSD) /
          source.circulatingPrevDay.peggedUSD) *
          100
      )
    )
    assert.equal(usdt.peg_price, round(source.price!, 4))
  })

  test('classifies pegs as stable up to 0.5 %, minor up to 2 %, major beyond', async ({
    assert,
  }) => {
    const data = (await run()) as any
    for (const coin of [...data.top_stablecoins, ...data.peg_alerts]) {
      const expected =
        coin.peg_deviation <= 0.005
          ? 'stable'
          : coin.peg_deviation <= 0.02
            ? 'minor_deviation'
            : 'major_deviation'
      assert.equal(coin.peg_status, expected)
    }
    const alerts = Object.fromEntries(
      data.peg_alerts.map((coin: any) => [coin.symbol, coin.peg_status])
    )
    assert.deepEqual(alerts, {
      FDUSD: 'minor_deviation',
      USD0: 'minor_deviation',
      USDX: 'major_deviation',
    })
    assert.equal(data.summary.major_deviation_count, 1)
  })

  test('sums every USD stablecoin and counts only coins with history in the daily change', async ({
    assert,
  }) => {
    const data = (await run()) as any
    const { peggedAssets } = await raw<{ peggedAssets: RawAsset[] }>(
      '/stablecoins?includePrices=true'
    )
    const usd = peggedAssets.filter((asset) => asset.pegType === 'peggedUSD')
    const total = usd.reduce((sum, asset) => sum + round(asset.circulating.peggedUSD), 0)
    assert.closeTo(data.summary.total_market_cap_usd, total, 0.05)
    assert.equal(data.summary.stablecoins_tracked, usd.length)

    const withHistory = usd.filter((asset) => asset.circulatingPrevDay.peggedUSD)
    assert.isBelow(withHistory.length, usd.length)
    const change = withHistory.reduce(
      (sum, asset) => sum + round(asset.circulating.peggedUSD) - asset.circulatingPrevDay.peggedUSD,
      0
    )
    assert.closeTo(data.summary.change_1d_usd, change, 0.05)
  })

  test('distributes supply over chains counting every peg currency', async ({ assert }) => {
    const data = (await run()) as any
    const chains = await raw<RawChain[]>('/stablecoinchains')
    const totals = chains.map((chain) =>
      Object.values(chain.totalCirculatingUSD).reduce((sum, value) => sum + value, 0)
    )
    const all = totals.reduce((sum, value) => sum + value, 0)

    assert.isAtMost(data.chain_distribution.length, 15)
    const ethereum = data.chain_distribution[0]
    assert.equal(ethereum.chain, 'Ethereum')
    assert.equal(ethereum.stablecoin_mcap_usd, round(totals[0]))
    assert.equal(ethereum.share_pct, round((totals[0] / all) * 100))
  })

  test('a DefiLlama stablecoins outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('defillama_stablecoins', 'status_503')
    await assert.rejects(() => run(), UpstreamFailure)
  })
})
