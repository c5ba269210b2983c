import { test } from '@japa/runner'
import adapter from '#feeds/builtin/adapters/defi_scores'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

interface RawProtocol {
  name: string
  category: string
  tvl: number
  change_1d: number | null
  audits?: string
}

const RECOMMENDATIONS = ['strong_buy', 'favorable', 'neutral', 'caution', 'strong_avoid']
const round = (value: number) => Number(value.toFixed(2))

test.group('Built-in feed defi-scores', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const simulator = () => upstreams.simulator()
  const run = () => upstreams.run(adapter)
  const rawProtocols = async () =>
    fetch(`${simulator().url}/defillama/protocols`).then((response) => response.json()) as Promise<
      RawProtocol[]
    >

  test('ranks the top 20 protocols by composite score with the spec fields', async ({ assert }) => {
    const data = (await run()) as any

    assert.lengthOf(data.protocols, 20)
    for (const protocol of data.protocols) {
      assert.isString(protocol.protocol)
      assert.isString(protocol.chain)
      assert.isString(protocol.category)
      assert.isNumber(protocol.tvl_usd)
      assert.isNumber(protocol.tvl_change_24h)
      assert.isNumber(protocol.risk_score)
      assert.isNumber(protocol.opportunity_score)
      assert.isNumber(protocol.composite_score)
      assert.include(RECOMMENDATIONS, protocol.recommendation)
      assert.isTrue(Number.isInteger(protocol.metrics.audit_count))
    }
    const scores = data.protocols.map((protocol: any) => protocol.composite_score)
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a)
    )
  })

  test('recommendations follow the composite score thresholds 80/60/40/20', async ({ assert }) => {
    const data = (await run()) as any
    for (const { composite_score: score, recommendation } of data.protocols) {
      const expected =
        score >= 80
          ? 'strong_buy'
          : score >= 60
            ? 'favorable'
            : score >= 40
              ? 'neutral'
              : score >= 20
                ? 'caution'
                : 'strong_avoid'
      assert.equal(recommendation, expected)
    }
    const counts = Object.values(data.summary.recommendations) as number[]
    assert.equal(
      counts.reduce((sum, count) => sum + count, 0),
      data.summary.protocols_scored
    )
  })

  test('takes TVL, 24h change and audit count from DefiLlama and leaves out exchanges', async ({
    assert,
  }) => {
    const data = (await run()) as any
    const raw = await rawProtocols()

    for (const protocol of data.protocols) {
      const source = raw.find((entry) => entry.name === protocol.protocol)!
      assert.notEqual(source.category, 'CEX')
      assert.equal(protocol.tvl_usd, round(source.tvl))
      assert.equal(protocol.tvl_change_24h, round(source.change_1d ?? 0))
      assert.equal(protocol.metrics.audit_count, Number(source.audits ?? 0))
    }
    const eligible = raw.filter((entry) => entry.category !== 'CEX' && entry.tvl >= 1_000_000)
    assert.equal(data.summary.protocols_scored, eligible.length)
  })

  test('young unaudited protocols never reach the ranking', async ({ assert }) => {
    const data = (await run()) as any
    const names = data.protocols.map((protocol: any) => protocol.protocol)
    assert.notInclude(names, 'Nebula Vaults')
    assert.notInclude(names, 'Solstice Perps')
    assert.isTrue(
      data.protocols.every(
        (protocol: any) => protocol.metrics.audit_count > 0 || protocol.metrics.age_days > 90
      )
    )
  })

  test('a DefiLlama outage surfaces as an upstream failure', async ({ assert }) => {
    simulator().failNext('defillama', 'status_503')
    await assert.rejects(() => run(), UpstreamFailure)
  })
})
