import { test } from '@japa/runner'
import adapter, { EXCHANGE_WALLETS } from '#feeds/builtin/adapters/whale_alerts'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

interface RawOutput {
  scriptpubkey_address?: string
  value: number
}

interface RawTransaction {
  txid: string
  vin: { is_coinbase: boolean; prevout: RawOutput | null }[]
  vout: RawOutput[]
}

const SATS = 100_000_000

/** Outputs paying addresses other than the inputs' (all outputs for a self-transfer). */
function moved(tx: RawTransaction) {
  const senders = new Set(tx.vin.map((input) => input.prevout?.scriptpubkey_address))
  const addressed = tx.vout.filter((out) => out.scriptpubkey_address)
  const payees = addressed.filter((out) => !senders.has(out.scriptpubkey_address))
  return (payees.length > 0 ? payees : addressed).reduce((sum, out) => sum + out.value, 0)
}
const totalOutput = (tx: RawTransaction) => tx.vout.reduce((sum, out) => sum + out.value, 0)

test.group('Built-in feed whale-alerts', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const raw = async <T>(path: string) =>
    fetch(`${upstreams.simulator().url}${path}`).then((response) => response.json()) as Promise<T>

  /** What the adapter reads: two newest blocks × two pages, large mempool arrivals. */
  async function scannedTransactions() {
    const blocks = await raw<{ id: string }[]>('/mempool/api/blocks')
    const pages = await Promise.all(
      blocks
        .slice(0, 2)
        .flatMap((block) => [
          raw<RawTransaction[]>(`/mempool/api/block/${block.id}/txs`),
          raw<RawTransaction[]>(`/mempool/api/block/${block.id}/txs/25`),
        ])
    )
    const recent = await raw<{ txid: string; value: number }[]>('/mempool/api/mempool/recent')
    const large = recent
      .filter((tx) => tx.value > 100 * SATS)
      .sort((a, b) => b.value - a.value)
      .slice(0, 3)
    const mempool = await Promise.all(
      large.map((tx) => raw<RawTransaction>(`/mempool/api/tx/${tx.txid}`))
    )
    return { confirmed: pages.flat(), mempool }
  }

  test('alerts exactly the transfers moving more than 100 BTC', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const { confirmed, mempool } = await scannedTransactions()
    const whales = [...confirmed, ...mempool].filter(
      (tx) => !tx.vin[0].is_coinbase && moved(tx) > 100 * SATS
    )

    assert.isAbove(whales.length, 0)
    assert.isAbove(mempool.length, 0)
    assert.sameMembers(
      data.alerts.map((alert: any) => alert.txid),
      whales.map((tx) => tx.txid)
    )
    for (const tx of whales) {
      const alert = data.alerts.find((entry: any) => entry.txid === tx.txid)
      assert.equal(alert.amount_btc, moved(tx) / SATS)
    }
    assert.isTrue(data.alerts.every((alert: any) => alert.amount_btc > 100))
    assert.isTrue(data.alerts.some((alert: any) => alert.confirmed === false))
  })

  test('change paid back to the sender does not count toward the amount', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const { confirmed } = await scannedTransactions()
    const payouts = confirmed.filter(
      (tx) => totalOutput(tx) > 100 * SATS && moved(tx) <= 100 * SATS
    )
    const below = confirmed.filter(
      (tx) => totalOutput(tx) > 5 * SATS && totalOutput(tx) <= 100 * SATS
    )

    assert.isAbove(payouts.length, 0, 'the fixture has exchange payouts with large change')
    assert.isAbove(below.length, 0, 'the fixture has transfers below the threshold')
    const alerted = new Set(data.alerts.map((alert: any) => alert.txid))
    for (const tx of [...payouts, ...below]) assert.isFalse(alerted.has(tx.txid))
  })

  test('classifies significance by amount and flow type by exchange labels', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const price = await raw<{ bitcoin: { usd: number } }>(
      '/coingecko/api/v3/simple/price?ids=bitcoin&vs_currencies=usd'
    )

    assert.equal(data.btc_price_usd, price.bitcoin.usd)
    assert.includeMembers(
      data.alerts.map((alert: any) => alert.type),
      ['transfer', 'exchange_inflow', 'exchange_outflow']
    )
    assert.includeMembers(
      data.alerts.map((alert: any) => alert.significance),
      ['high', 'critical', 'extreme']
    )
    for (const alert of data.alerts) {
      const expected =
        alert.amount_btc > 3000 ? 'extreme' : alert.amount_btc > 1000 ? 'critical' : 'high'
      assert.equal(alert.significance, expected)
      assert.closeTo(alert.amount_usd, alert.amount_btc * price.bitcoin.usd, 0.01)
      for (const side of [alert.from, alert.to]) {
        assert.equal(side.label, EXCHANGE_WALLETS[side.address] ?? 'unknown wallet')
      }
      const fromExchange = alert.from.label !== 'unknown wallet'
      const toExchange = alert.to.label !== 'unknown wallet'
      const type =
        fromExchange && !toExchange
          ? 'exchange_outflow'
          : toExchange && !fromExchange
            ? 'exchange_inflow'
            : 'transfer'
      assert.equal(alert.type, type)
    }
  })

  test('summarises the alerts in the shape of the spec', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const total = data.alerts.reduce((sum: number, alert: any) => sum + alert.amount_btc, 0)
    const involvement = new Map<string, number>()
    for (const alert of data.alerts) {
      for (const label of new Set([alert.from.label, alert.to.label])) {
        if (label !== 'unknown wallet') involvement.set(label, (involvement.get(label) ?? 0) + 1)
      }
    }

    assert.properties(data, ['alerts', 'summary', 'btc_price_usd', 'data_source'])
    assert.isString(data.data_source)
    assert.properties(data.alerts[0], [
      'type',
      'amount_btc',
      'amount_usd',
      'from',
      'to',
      'significance',
    ])
    assert.isString(data.alerts[0].from.label)
    assert.equal(data.summary.alert_count, data.alerts.length)
    assert.closeTo(data.summary.total_volume_btc, total, 1e-8)
    assert.equal(involvement.get(data.summary.most_active), Math.max(...involvement.values()))
    assert.deepEqual(
      data.alerts.map((alert: any) => alert.amount_btc),
      [...data.alerts.map((alert: any) => alert.amount_btc)].sort((a, b) => b - a)
    )
  })

  test('a mempool.space outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('mempool', 'status_503')
    await assert.rejects(() => upstreams.run(adapter), UpstreamFailure)
  })

  test('a CoinGecko outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('coingecko', 'status_503')
    await assert.rejects(() => upstreams.run(adapter), UpstreamFailure)
  })
})
