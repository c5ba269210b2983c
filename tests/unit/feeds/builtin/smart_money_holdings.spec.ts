import { test } from '@japa/runner'
import smartMoneyFlows from '#feeds/builtin/adapters/smart_money_flows'
import smartMoneyHoldings from '#feeds/builtin/adapters/smart_money_holdings'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { TEST_SETTINGS, useUpstreamSimulator } from '#tests/support/upstreams'

const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7'

interface AddressInfo {
  tokens: {
    rawBalance: string
    tokenInfo: { address: string; decimals: string; price: false | { rate: number } }
  }[]
}

type Holdings = {
  holdings: {
    token: string
    token_address: string | null
    amount: number
    value_usd: number
    holders: number
    net_flow_24h_usd: number | null
    signal: string
  }[]
  total_value_usd: number
  summary: { token_count: number; accumulating: number; distributing: number; neutral: number }
  window_hours: number
  wallets_tracked: number
}

type Flows = {
  top_inflows: { token_address: string; amount_usd: number }[]
  top_outflows: { token_address: string; amount_usd: number }[]
}

test.group('Smart money holdings', (group) => {
  const upstreams = useUpstreamSimulator(group)

  test('adds up each token over the tracked wallets and counts its holders', async ({ assert }) => {
    let amount = 0
    let holders = 0
    for (const { address } of TEST_SETTINGS.smartMoneyWallets) {
      const response = await fetch(
        `${upstreams.simulator().url}/ethplorer/getAddressInfo/${address}?apiKey=freekey`
      )
      const info = (await response.json()) as AddressInfo
      const usdt = info.tokens.find((held) => held.tokenInfo.address === USDT)
      if (!usdt) continue
      amount += Number(usdt.rawBalance) / 1e6
      holders++
    }

    const result = (await upstreams.run(smartMoneyHoldings)) as Holdings
    const usdt = result.holdings.find((holding) => holding.token_address === USDT)!

    assert.equal(usdt.token, 'USDT')
    assert.equal(usdt.holders, holders)
    assert.closeTo(usdt.amount, amount, 0.01)
    assert.equal(result.wallets_tracked, 3)
    assert.equal(result.window_hours, 24)
    const values = result.holdings.map((holding) => holding.value_usd)
    assert.deepEqual(
      values,
      [...values].sort((a, b) => b - a)
    )
    assert.isTrue(result.holdings.every((holding) => holding.token !== 'ETHG'))
  })

  test('marks accumulation and distribution from the 24 h net flow of each token', async ({
    assert,
  }) => {
    const result = (await upstreams.run(smartMoneyHoldings)) as Holdings
    const flows = (await upstreams.run(smartMoneyFlows)) as Flows

    for (const holding of result.holdings) {
      if (holding.token_address === null) {
        assert.isNull(holding.net_flow_24h_usd, 'ETH transfers are not in the token history')
        assert.equal(holding.signal, 'neutral')
        continue
      }
      const net = holding.net_flow_24h_usd!
      const expected =
        Math.abs(net) < 0.01 * holding.value_usd
          ? 'neutral'
          : net > 0
            ? 'accumulation'
            : 'distribution'
      assert.equal(holding.signal, expected, holding.token)
    }
    for (const inflow of flows.top_inflows) {
      const holding = result.holdings.find((entry) => entry.token_address === inflow.token_address)
      if (holding) assert.closeTo(holding.net_flow_24h_usd!, inflow.amount_usd, 0.01)
    }
    for (const outflow of flows.top_outflows) {
      const holding = result.holdings.find((entry) => entry.token_address === outflow.token_address)
      if (holding) assert.closeTo(holding.net_flow_24h_usd!, -outflow.amount_usd, 0.01)
    }
    assert.isAbove(result.summary.accumulating + result.summary.distributing, 0)
    assert.equal(
      result.summary.accumulating + result.summary.distributing + result.summary.neutral,
      result.summary.token_count
    )
  })

  test('fails with UpstreamFailure when Ethplorer is down', async ({ assert }) => {
    upstreams.simulator().failNext('ethplorer', 'status_503')
    await assert.rejects(() => upstreams.run(smartMoneyHoldings), UpstreamFailure)
  })
})
