import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { PlatformWallet } from '#chain/platform_wallet'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { inGlobalTransaction } from '#tests/support/database'

test.group('GET /registry/feeds', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('lists the sixteen built-in feeds with the spec fields and prices', async ({
    client,
    assert,
  }) => {
    const wallet = await app.container.make(PlatformWallet)

    const response = await client.get('/registry/feeds')

    response.assertStatus(200)
    const body = response.body()
    assert.containsSubset(body, {
      protocol: 'x402',
      version: '1.0.0',
      provider: wallet.address,
      payment_protocol: 'x402 v2',
    })
    assert.isString(body.description)
    assert.include(body.settlement, 'stacks:2147483648')
    assert.sameMembers(
      body.feeds.map((feed: { id: string }) => feed.id),
      BUILTIN_FEEDS.map((feed) => feed.id)
    )
    assert.deepEqual(
      body.feeds.find((feed: { id: string }) => feed.id === 'whale-alerts'),
      {
        id: 'whale-alerts',
        endpoint: '/feeds/whale-alerts',
        price_stx: 0.005,
        price_display: '0.005 STX',
        description: 'Bitcoin transfers above 100 BTC, labelled and ranked by significance',
        category: 'on-chain',
        update_frequency: '1 minute',
        stats: { total_queries: 0, avg_response_ms: 0, uptime_percent: 100 },
      }
    )
    const prices = Object.fromEntries(
      body.feeds.map((feed: { id: string; price_stx: number }) => [feed.id, feed.price_stx])
    )
    assert.deepInclude(prices, {
      'btc-sentiment': 0.003,
      'defi-scores': 0.01,
      'smart-money-flows': 0.08,
      'token-intel': 0.05,
      'liquidation-alerts': 0.008,
      'dex-trades': 0.08,
    })
  })

  test('reports stats from the rollup counters and hides paused feeds', async ({
    client,
    assert,
  }) => {
    const db = await app.container.make('lucid.db')
    const feed = await db
      .from('feeds')
      .where('slug', 'gas-prediction')
      .whereNull('provider_id')
      .first()
    await db.table('feed_stats').insert({
      feed_id: feed.id,
      total_queries: 4,
      total_response_ms: 130,
      source_calls: 8,
      source_failures: 1,
    })
    await db.from('feeds').where('slug', 'governance').update({ status: 'paused' })

    const response = await client.get('/registry/feeds')

    const feeds = response.body().feeds as { id: string; stats: unknown }[]
    assert.deepEqual(feeds.find((entry) => entry.id === 'gas-prediction')?.stats, {
      total_queries: 4,
      avg_response_ms: 33,
      uptime_percent: 87.5,
    })
    assert.notInclude(
      feeds.map((entry) => entry.id),
      'governance'
    )
  })
})
