import { test } from '@japa/runner'
import adapter from '#feeds/builtin/adapters/security_alerts'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

interface RawHack {
  date: number
  name: string
  amount: number | null
}

const NOW_SECONDS = 1_795_300_000
const DAY = 86_400

test.group('Built-in feed security-alerts', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const run = () => upstreams.run(adapter)
  const rawHacks = async () =>
    fetch(`${upstreams.simulator().url}/defillama/hacks`).then((response) =>
      response.json()
    ) as Promise<RawHack[]>

  test('lists the 15 most recent incidents from the DefiLlama hacks list, newest first', async ({
    assert,
  }) => {
    const data = (await run()) as any
    const hacks = await rawHacks()
    const newest = [...hacks].sort((a, b) => b.date - a.date).slice(0, 15)

    assert.deepEqual(
      data.recent_incidents.map((incident: any) => incident.name),
      newest.map((hack) => hack.name)
    )
    const first = data.recent_incidents[0]
    assert.equal(first.amount_usd, newest[0].amount)
    assert.equal(first.date, new Date(newest[0].date * 1000).toISOString())
    assert.isArray(first.chains)
    assert.isString(first.technique)
  })

  test('summarises losses of the last 30 days and rates the overall risk from them', async ({
    assert,
  }) => {
    const data = (await run()) as any
    const hacks = await rawHacks()
    const recent = hacks.filter((hack) => hack.date >= NOW_SECONDS - 30 * DAY)
    const losses = recent.reduce((sum, hack) => sum + (hack.amount ?? 0), 0)

    assert.equal(data.summary.incidents_30d, recent.length)
    assert.equal(data.summary.losses_30d_usd, losses)
    // Five incidents in 30 days but less than $100M lost: high, not critical.
    assert.equal(recent.length, 5)
    assert.isBelow(losses, 100_000_000)
    assert.equal(data.overall_risk, 'high')
  })

  test('flags unaudited, young, small, collapsing or exploited protocols above $100k TVL', async ({
    assert,
  }) => {
    const data = (await run()) as any
    const byName = Object.fromEntries(
      data.high_risk_protocols.map((protocol: any) => [protocol.protocol, protocol])
    )

    assert.deepEqual(byName['Driftwood Swap'].risk_factors, [
      'no_audit',
      'listed_under_90_days',
      'tvl_under_1m',
      'sharp_tvl_drop',
      'exploited_last_12_months',
    ])
    assert.equal(byName['Driftwood Swap'].risk_level, 'critical')
    assert.deepEqual(byName['Nebula Vaults'].risk_factors, ['no_audit', 'listed_under_30_days'])
    assert.equal(byName['Quasar Options'].risk_level, 'high')
    // Orchid Farm holds less than $100k; exchanges are not DeFi protocols.
    assert.notProperty(byName, 'Orchid Farm')
    assert.notProperty(byName, 'Binance CEX')

    for (const protocol of data.high_risk_protocols) {
      assert.include(['critical', 'high'], protocol.risk_level)
      assert.isAbove(protocol.tvl_usd, 100_000)
    }
    const points = data.high_risk_protocols.map((protocol: any) => protocol.risk_points)
    assert.deepEqual(
      points,
      [...points].sort((a, b) => b - a)
    )
  })

  test('a DefiLlama outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('defillama', 'status_503')
    await assert.rejects(() => run(), UpstreamFailure)
  })
})
