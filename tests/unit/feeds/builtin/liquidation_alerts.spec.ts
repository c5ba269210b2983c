import { test } from '@japa/runner'
import adapter from '#feeds/builtin/adapters/liquidation_alerts'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

interface RawTicker {
  symbol: string
  lastPrice: string
  priceChangePercent: string
  quoteVolume: string
}

interface RawOpenInterest {
  sumOpenInterest: string
  sumOpenInterestValue: string
  timestamp: number
}

const round = (value: number, decimals = 2) => Number(value.toFixed(decimals))

test.group('Built-in feed liquidation-alerts', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const raw = async <T>(path: string) =>
    fetch(`${upstreams.simulator().url}/binance_futures${path}`).then((response) =>
      response.json()
    ) as Promise<T>
  const busiest = async () => {
    const tickers = await raw<RawTicker[]>('/fapi/v1/ticker/24hr')
    return tickers
      .filter((ticker) => /^[A-Z0-9]+USDT$/.test(ticker.symbol))
      .sort((a, b) => Number(b.quoteVolume) - Number(a.quoteVolume))
  }

  test('tracks the five busiest USDT perpetuals and overviews the ten busiest', async ({
    assert,
  }) => {
    const data = (await upstreams.run(adapter)) as any
    const tickers = await busiest()

    assert.deepEqual(
      data.market_overview.map((entry: any) => entry.symbol),
      tickers.slice(0, 10).map((ticker) => ticker.symbol)
    )
    assert.sameMembers(
      data.by_symbol.map((entry: any) => entry.symbol),
      tickers.slice(0, 5).map((ticker) => ticker.symbol)
    )
    assert.notInclude(
      data.market_overview.map((entry: any) => entry.symbol),
      'BTCUSDT_261225'
    )
    assert.deepEqual(data.market_overview[0], {
      symbol: tickers[0].symbol,
      last_price: Number(tickers[0].lastPrice),
      price_change_pct_24h: round(Number(tickers[0].priceChangePercent)),
      high_24h: data.market_overview[0].high_24h,
      low_24h: data.market_overview[0].low_24h,
      quote_volume_usd: round(Number(tickers[0].quoteVolume)),
    })
  })

  test('measures the last hour’s open-interest drop and blames the side the price moved against', async ({
    assert,
  }) => {
    const data = (await upstreams.run(adapter)) as any
    const sides = new Set<string>()

    for (const entry of data.by_symbol) {
      const history = await raw<RawOpenInterest[]>(
        `/futures/data/openInterestHist?symbol=${entry.symbol}&period=5m&limit=13`
      )
      const [first, last] = [history[0], history[history.length - 1]]
      const oiThen = Number(first.sumOpenInterest)
      const oiNow = Number(last.sumOpenInterest)
      const priceThen = Number(first.sumOpenInterestValue) / oiThen
      const priceNow = Number(last.sumOpenInterestValue) / oiNow
      const priceChange = ((priceNow - priceThen) / priceThen) * 100
      const side =
        oiNow >= oiThen
          ? 'none'
          : Math.abs(priceChange) < 0.25
            ? 'mixed'
            : priceChange < 0
              ? 'longs'
              : 'shorts'
      sides.add(side)

      assert.equal(entry.oi_change_pct, round(((oiNow - oiThen) / oiThen) * 100), entry.symbol)
      assert.equal(entry.price_change_pct, round(priceChange), entry.symbol)
      assert.equal(entry.oi_drop_usd, round(Math.max(0, oiThen - oiNow) * priceNow), entry.symbol)
      assert.equal(entry.pressure_side, side, entry.symbol)
    }
    assert.includeMembers([...sides], ['longs', 'shorts', 'none'])
  })

  test('rates pressure by the size of the drop and of the price move', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any

    for (const entry of data.by_symbol) {
      const drop = -entry.oi_change_pct
      const move = Math.abs(entry.price_change_pct)
      const level =
        entry.oi_drop_usd === 0
          ? 'low'
          : drop >= 3 && move >= 1
            ? 'high'
            : drop >= 1 && move >= 0.5
              ? 'elevated'
              : 'low'
      assert.equal(entry.pressure_level, level, entry.symbol)
    }
    assert.deepEqual(
      data.alerts.map((entry: any) => entry.symbol),
      data.by_symbol
        .filter((entry: any) => entry.pressure_level !== 'low')
        .map((entry: any) => entry.symbol)
    )
    assert.isAbove(data.alerts.length, 0)
  })

  test('sums pressure per side in the summary', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const sum = (side: string) =>
      data.by_symbol
        .filter((entry: any) => entry.pressure_side === side)
        .reduce((total: number, entry: any) => total + entry.oi_drop_usd, 0)
    const longs = sum('longs')
    const shorts = sum('shorts')

    assert.equal(data.summary.measure, 'open_interest_drop')
    assert.closeTo(data.summary.long_pressure_usd, longs, 0.01)
    assert.closeTo(data.summary.short_pressure_usd, shorts, 0.01)
    assert.closeTo(data.summary.unattributed_usd, sum('mixed'), 0.01)
    assert.closeTo(data.summary.total_oi_drop_usd, longs + shorts + sum('mixed'), 0.03)
    assert.equal(data.summary.long_vs_short_ratio, round(longs / shorts))
    assert.equal(data.summary.dominant_side, longs > shorts ? 'longs' : 'shorts')
  })

  test('reports each tracked symbol’s long/short account split', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const entry = data.by_symbol[0]
    const [ratio] = await raw<Record<string, string>[]>(
      `/futures/data/globalLongShortAccountRatio?symbol=${entry.symbol}&period=5m&limit=1`
    )

    assert.equal(entry.long_account_pct, round(Number(ratio.longAccount) * 100))
    assert.equal(entry.short_account_pct, round(Number(ratio.shortAccount) * 100))
    assert.equal(
      entry.crowded_side,
      Number(ratio.longAccount) >= 0.6
        ? 'longs'
        : Number(ratio.shortAccount) >= 0.6
          ? 'shorts'
          : 'balanced'
    )
  })

  test('a Binance outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('binance_futures', 'status_503')
    await assert.rejects(() => upstreams.run(adapter), UpstreamFailure)
  })
})
