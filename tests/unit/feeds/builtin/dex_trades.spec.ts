import { test } from '@japa/runner'
import dexTrades from '#feeds/builtin/adapters/dex_trades'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { TEST_SETTINGS, useUpstreamSimulator } from '#tests/support/upstreams'

const NOW = 1_795_300_000_000

interface Fill {
  coin: string
  px: string
  sz: string
  side: 'B' | 'A'
  time: number
}

type Trades = {
  trades: {
    wallet_label: string
    coin: string
    side: string
    price: number
    size: number
    notional_usd: number
    time: string
    closed_pnl: number
  }[]
  summary: {
    trade_count: number
    total_notional_usd: number
    long_notional_usd: number
    short_notional_usd: number
    most_traded_coin: string | null
  }
  window_hours: number
  wallets_tracked: number
}

test.group('DEX trades', (group) => {
  const upstreams = useUpstreamSimulator(group)

  /** Every fill the simulated Hyperliquid returns for the tracked wallets. */
  async function allFills() {
    const fills: Fill[] = []
    for (const { address } of TEST_SETTINGS.smartMoneyWallets) {
      const response = await fetch(`${upstreams.simulator().url}/hyperliquid/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'userFills', user: address }),
      })
      fills.push(...((await response.json()) as Fill[]))
    }
    return fills
  }

  test('lists the 50 latest perpetual fills of the last 24 hours, newest first', async ({
    assert,
  }) => {
    const result = (await upstreams.run(dexTrades)) as Trades

    assert.lengthOf(result.trades, 50)
    const times = result.trades.map((trade) => Date.parse(trade.time))
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a)
    )
    assert.isTrue(times.every((time) => time >= NOW - 86_400_000 && time <= NOW))
    const labels = new Set(TEST_SETTINGS.smartMoneyWallets.map((wallet) => wallet.label))
    for (const trade of result.trades) {
      assert.isTrue(labels.has(trade.wallet_label))
      assert.oneOf(trade.side, ['buy', 'sell'])
      assert.closeTo(trade.notional_usd, trade.price * trade.size, 0.01)
    }
    assert.equal(result.window_hours, 24)
    assert.equal(result.wallets_tracked, 3)
  })

  test('sums notional by side over every perpetual fill in the window', async ({ assert }) => {
    const fills = await allFills()
    assert.isTrue(
      fills.some((fill) => fill.coin.startsWith('@') && fill.time >= NOW - 86_400_000),
      'the fixture should contain spot fills in the window'
    )
    const counted = fills.filter(
      (fill) => fill.time >= NOW - 86_400_000 && !fill.coin.startsWith('@')
    )
    const notional = (side: 'B' | 'A') =>
      counted
        .filter((fill) => fill.side === side)
        .reduce((sum, fill) => sum + Number(fill.px) * Number(fill.sz), 0)
    const byCoin = new Map<string, number>()
    for (const fill of counted) {
      byCoin.set(fill.coin, (byCoin.get(fill.coin) ?? 0) + Number(fill.px) * Number(fill.sz))
    }

    const { summary, trades } = (await upstreams.run(dexTrades)) as Trades

    assert.equal(summary.trade_count, counted.length)
    assert.closeTo(summary.long_notional_usd, notional('B'), 0.02)
    assert.closeTo(summary.short_notional_usd, notional('A'), 0.02)
    assert.closeTo(summary.total_notional_usd, notional('B') + notional('A'), 0.02)
    assert.equal(summary.most_traded_coin, [...byCoin].sort((a, b) => b[1] - a[1])[0][0])
    assert.isTrue(trades.every((trade) => !trade.coin.startsWith('@')))
  })

  test('fails with UpstreamFailure when Hyperliquid is down', async ({ assert }) => {
    upstreams.simulator().failNext('hyperliquid', 'status_503')
    await assert.rejects(() => upstreams.run(dexTrades), UpstreamFailure)
  })
})
