import { test } from '@japa/runner'
import smartMoneyFlows, { flowSignal } from '#feeds/builtin/adapters/smart_money_flows'
import { BUSY_ADDRESS } from '@tollbooth/upstream-simulator'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { TEST_SETTINGS, useUpstreamSimulator } from '#tests/support/upstreams'

const NOW_S = 1_795_300_000

interface Operation {
  timestamp: number
  from: string
  to: string
  value: string
  tokenInfo: { address: string; symbol: string; decimals: string; price: false | { rate: number } }
}

/** What the simulated Ethplorer lists for the tracked wallets, within the last 24 h. */
async function windowOperations(simulatorUrl: string) {
  const operations: (Operation & { wallet: string })[] = []
  for (const { address } of TEST_SETTINGS.smartMoneyWallets) {
    const response = await fetch(
      `${simulatorUrl}/ethplorer/getAddressHistory/${address}?apiKey=freekey&type=transfer&limit=100`
    )
    const answer = (await response.json()) as { operations: Operation[] }
    for (const operation of answer.operations) {
      if (operation.timestamp >= NOW_S - 86_400) operations.push({ ...operation, wallet: address })
    }
  }
  return operations
}

const tracked = new Set(TEST_SETTINGS.smartMoneyWallets.map((wallet) => wallet.address))
const isInternal = (operation: Operation) =>
  tracked.has(operation.from) && tracked.has(operation.to)

type Flows = {
  signal: string
  net_inflow_usd: number
  net_outflow_usd: number
  top_inflows: { token: string; amount_usd: number }[]
  top_outflows: { token: string; amount_usd: number }[]
  window_hours: number
  wallets_tracked: number
  transfers_counted: number
  unpriced_transfers: number
  window_complete: boolean
}

test.group('Smart money flows', (group) => {
  const upstreams = useUpstreamSimulator(group)

  test('answers the signal, net flows and top token lists of the spec', async ({ assert }) => {
    const flows = (await upstreams.run(smartMoneyFlows)) as Flows

    assert.oneOf(flows.signal, ['STRONG_BUY', 'BUY', 'SELL', 'STRONG_SELL', 'NEUTRAL'])
    assert.isNumber(flows.net_inflow_usd)
    assert.isNumber(flows.net_outflow_usd)
    assert.isAtMost(flows.top_inflows.length, 5)
    assert.isAtMost(flows.top_outflows.length, 5)
    for (const entry of [...flows.top_inflows, ...flows.top_outflows]) {
      assert.isString(entry.token)
      assert.isAbove(entry.amount_usd, 0)
    }
    assert.equal(flows.window_hours, 24)
    assert.equal(flows.wallets_tracked, 3)
  })

  test('nets each token over the last 24 hours, valued at the current price', async ({
    assert,
  }) => {
    const operations = await windowOperations(upstreams.simulator().url)
    const net = new Map<string, { token: string; usd: number }>()
    for (const operation of operations) {
      if (operation.tokenInfo.price === false || isInternal(operation)) continue
      const usd =
        (Number(operation.value) / 10 ** Number(operation.tokenInfo.decimals)) *
        operation.tokenInfo.price.rate
      const entry = net.get(operation.tokenInfo.address) ?? {
        token: operation.tokenInfo.symbol,
        usd: 0,
      }
      entry.usd += operation.to === operation.wallet ? usd : -usd
      net.set(operation.tokenInfo.address, entry)
    }
    const entries = [...net.values()]
    const inflow = entries.filter((e) => e.usd > 0).reduce((sum, e) => sum + e.usd, 0)
    const outflow = -entries.filter((e) => e.usd < 0).reduce((sum, e) => sum + e.usd, 0)
    const largestIn = entries.sort((a, b) => b.usd - a.usd)[0]

    const flows = (await upstreams.run(smartMoneyFlows)) as Flows

    assert.closeTo(flows.net_inflow_usd, inflow, 0.02)
    assert.closeTo(flows.net_outflow_usd, outflow, 0.02)
    assert.equal(flows.top_inflows[0].token, largestIn.token)
    assert.equal(flows.signal, flowSignal(flows.net_inflow_usd, flows.net_outflow_usd))
  })

  test('leaves out transfers between tracked wallets and tokens without a price', async ({
    assert,
  }) => {
    const operations = await windowOperations(upstreams.simulator().url)
    const internal = operations.filter(isInternal).length
    const unpriced = operations.filter(
      (operation) => !isInternal(operation) && operation.tokenInfo.price === false
    ).length
    assert.isAbove(internal, 0, 'the fixture should contain transfers between tracked wallets')
    assert.isAbove(unpriced, 0, 'the fixture should contain spam tokens')

    const flows = (await upstreams.run(smartMoneyFlows)) as Flows

    assert.equal(flows.unpriced_transfers, unpriced)
    assert.equal(flows.transfers_counted, operations.length - internal - unpriced)
  })

  test('says the window is incomplete when 100 transfers do not reach back 24 hours', async ({
    assert,
  }) => {
    const normal = (await upstreams.run(smartMoneyFlows)) as Flows
    assert.isTrue(normal.window_complete)

    const busy = (await smartMoneyFlows.fetch({
      http: upstreams.http(),
      query: {},
      now: () => NOW_S * 1000,
      settings: {
        ...TEST_SETTINGS,
        smartMoneyWallets: [{ address: BUSY_ADDRESS, label: 'Sweeper' }],
      },
    })) as Flows
    assert.isFalse(busy.window_complete)
    assert.equal(busy.wallets_tracked, 1)
    assert.equal(busy.transfers_counted + busy.unpriced_transfers, 100)
  })

  test('signals STRONG_BUY above 1.5 × outflow and STRONG_SELL above 1.5 × inflow', ({
    assert,
  }) => {
    assert.equal(flowSignal(151, 100), 'STRONG_BUY')
    assert.equal(flowSignal(150, 100), 'BUY')
    assert.equal(flowSignal(100, 150), 'SELL')
    assert.equal(flowSignal(100, 151), 'STRONG_SELL')
    assert.equal(flowSignal(100, 100), 'SELL')
    assert.equal(flowSignal(0, 0), 'NEUTRAL')
  })

  test('fails with UpstreamFailure when Ethplorer is down', async ({ assert }) => {
    upstreams.simulator().failNext('ethplorer', 'status_503')
    await assert.rejects(() => upstreams.run(smartMoneyFlows), UpstreamFailure)
  })
})
