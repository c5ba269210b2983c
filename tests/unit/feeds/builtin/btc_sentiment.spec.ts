import { test } from '@japa/runner'
import adapter, { marketTrend, overallLabel } from '#feeds/builtin/adapters/btc_sentiment'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

const BITCOIN_PATH =
  '/coingecko/api/v3/coins/bitcoin?localization=false&tickers=false&community_data=true&developer_data=false'

test.group('Built-in feed btc-sentiment', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const raw = async <T>(path: string) =>
    fetch(`${upstreams.simulator().url}${path}`).then((response) => response.json()) as Promise<T>

  test('scores the Fear & Greed Index on a −100…100 scale', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const index = await raw<{ data: { value: string }[] }>('/alternative_me/fng/?limit=2')
    const today = Number(index.data[0].value)
    const yesterday = Number(index.data[1].value)
    const score = Math.round((today / 100) * 200 - 100)

    assert.equal(data.fear_greed_index, today)
    assert.equal(data.fear_greed_change, today - yesterday)
    assert.equal(data.overall_score, score)
    assert.equal(data.overall_label, overallLabel(score))
    assert.equal(data.market_trend, marketTrend(score))
  })

  test('labels and trends change at the documented thresholds', ({ assert }) => {
    const labels = [-100, -50, -49, -10, -9, 9, 10, 49, 50, 100].map(overallLabel)
    assert.deepEqual(labels, [
      'extreme_fear',
      'extreme_fear',
      'fear',
      'fear',
      'neutral',
      'neutral',
      'greed',
      'greed',
      'extreme_greed',
      'extreme_greed',
    ])
    assert.deepEqual([-21, -20, 20, 21].map(marketTrend), [
      'bearish',
      'neutral',
      'neutral',
      'bullish',
    ])
  })

  test('reads price, 24h change and dominance from CoinGecko', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const bitcoin = await raw<any>(BITCOIN_PATH)
    const global = await raw<any>('/coingecko/api/v3/global')
    const round = (value: number) => Math.round(value * 100) / 100

    assert.equal(data.btc_price_usd, round(bitcoin.market_data.current_price.usd))
    assert.equal(data.btc_24h_change, round(bitcoin.market_data.price_change_percentage_24h))
    assert.equal(data.btc_dominance, round(global.data.market_cap_percentage.btc))
  })

  test('social sources come from CoinGecko community data, never invented', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const bitcoin = await raw<any>(BITCOIN_PATH)
    const votesScore = Math.round((bitcoin.sentiment_votes_up_percentage / 100) * 200 - 100)

    assert.deepInclude(data.sources.x, {
      score: votesScore,
      volume: bitcoin.community_data.twitter_followers,
      available: true,
    })
    // CoinGecko reports 0 for every Reddit statistic: the network is unavailable, not made up.
    assert.equal(bitcoin.community_data.reddit_subscribers, 0)
    assert.deepInclude(data.sources.reddit, { score: 0, volume: 0, available: false })
    assert.deepEqual(data.sources.news, {
      score: 0,
      article_count: 0,
      headlines: [],
      available: false,
    })
  })

  test('answers in the shape of the spec', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any

    assert.isTrue(Number.isInteger(data.fear_greed_index))
    assert.isString(data.overall_label)
    for (const key of ['overall_score', 'btc_price_usd', 'btc_24h_change', 'btc_dominance']) {
      assert.isNumber(data[key], key)
    }
    assert.isString(data.market_trend)
    assert.includeMembers(Object.keys(data.sources), ['x', 'reddit', 'news'])
    for (const network of ['x', 'reddit']) {
      assert.isNumber(data.sources[network].score)
      assert.isTrue(Number.isInteger(data.sources[network].volume))
    }
    assert.isNumber(data.sources.news.score)
    assert.isTrue(Number.isInteger(data.sources.news.article_count))
    assert.isArray(data.sources.news.headlines)
  })

  test('an alternative.me outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('alternative_me', 'status_503')
    await assert.rejects(() => upstreams.run(adapter), UpstreamFailure)
  })

  test('a CoinGecko answer of an unexpected shape surfaces as an upstream failure', async ({
    assert,
  }) => {
    upstreams.simulator().failNext('coingecko', 'schema_drift')
    await assert.rejects(() => upstreams.run(adapter), UpstreamFailure)
  })
})
