import { test } from '@japa/runner'
import { recordPaidCalls } from '#tests/support/query_log'
import { inGlobalTransaction } from '#tests/support/database'

const ALICE = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5'
const BOB = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG'

test.group('Public statistics', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('with no paid call yet, every feed shows zero and the tier is earned from uptime alone', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/stats')

    response.assertStatus(200)
    const body = response.body()
    assert.containsSubset(body, {
      total_queries_served: 0,
      reputation_score: 30,
      tier: 'bronze',
      uptime_percent: 100,
    })
    assert.lengthOf(body.feed_breakdown, 16)
    assert.deepInclude(body.feed_breakdown, {
      feed_id: 'whale-alerts',
      queries: 0,
      avg_response_ms: 0,
      error_rate: 0,
    })
  })

  test('paid calls show in stats, activity (newest first) and the leaderboard', async ({
    client,
    assert,
  }) => {
    await recordPaidCalls([
      { feed: 'whale-alerts', payer: ALICE, price: 5_000n, ms: 40, agent: 'alpha' },
      { feed: 'whale-alerts', payer: BOB, price: 5_000n, ms: 60 },
      { feed: 'defi-scores', payer: BOB, price: 10_000n, ms: 20, agent: 'bravo' },
      { feed: 'btc-sentiment', payer: ALICE, price: 3_000n, ms: 10 },
    ])

    const stats = await client.get('/stats')
    const activity = await client.get('/activity').qs({ limit: 3 })
    const leaderboard = await client.get('/leaderboard')

    assert.equal(stats.body().total_queries_served, 4)
    assert.deepInclude(stats.body().feed_breakdown, {
      feed_id: 'whale-alerts',
      queries: 2,
      avg_response_ms: 50,
      error_rate: 0,
    })

    activity.assertStatus(200)
    assert.containsSubset(activity.body(), { total_revenue_stx: 0.023, unique_agents: 2 })
    assert.deepEqual(
      activity.body().activity.map((entry: { feed: string }) => entry.feed),
      ['btc-sentiment', 'defi-scores', 'whale-alerts']
    )
    assert.containsSubset(activity.body().activity[0], {
      feed: 'btc-sentiment',
      agent_name: 'ST1S…YPD5',
      agent_short: 'ST1S…YPD5',
      price_stx: 0.003,
      response_ms: 10,
      is_onchain: true,
      tx_hash: `0x${'4'.padStart(64, '0')}`,
      time_ago: 'just now',
    })

    assert.deepEqual(leaderboard.body(), {
      agents: [
        {
          rank: 1,
          agent_name: 'bravo',
          address_short: 'ST2C…K9AG',
          total_queries: 2,
          total_spent_stx: 0.015,
        },
        {
          rank: 2,
          agent_name: 'alpha',
          address_short: 'ST1S…YPD5',
          total_queries: 2,
          total_spent_stx: 0.008,
        },
      ],
    })
  })

  test("on the leaderboard a payer's last name wins; activity keeps each call's own", async ({
    client,
    assert,
  }) => {
    await recordPaidCalls([
      { feed: 'whale-alerts', payer: ALICE, price: 5_000n, ms: 40, agent: 'alpha' },
      { feed: 'whale-alerts', payer: ALICE, price: 5_000n, ms: 40, agent: 'alpha-v2' },
      { feed: 'whale-alerts', payer: ALICE, price: 5_000n, ms: 40 },
    ])

    const leaderboard = await client.get('/leaderboard')
    const activity = await client.get('/activity')

    assert.containsSubset(leaderboard.body().agents, [{ agent_name: 'alpha-v2', total_queries: 3 }])
    assert.lengthOf(leaderboard.body().agents, 1)
    assert.deepEqual(
      activity.body().activity.map((entry: { agent_name: string }) => entry.agent_name),
      ['ST1S…YPD5', 'alpha-v2', 'alpha']
    )
  })

  test("one feed's activity lists only its calls, the totals stay the marketplace's", async ({
    client,
    assert,
  }) => {
    await recordPaidCalls([
      { feed: 'whale-alerts', payer: ALICE, price: 5_000n, ms: 40 },
      { feed: 'defi-scores', payer: BOB, price: 10_000n, ms: 20 },
      { feed: 'whale-alerts', payer: BOB, price: 5_000n, ms: 30 },
    ])

    const whales = await client.get('/activity').qs({ feed: 'whale-alerts' })
    const unknown = await client.get('/activity').qs({ feed: 'no-such-feed' })

    assert.deepEqual(
      whales
        .body()
        .activity.map((entry: { feed: string; response_ms: number }) => entry.response_ms),
      [30, 40]
    )
    assert.containsSubset(whales.body(), { total_revenue_stx: 0.02, unique_agents: 2 })
    assert.deepEqual(unknown.body().activity, [])
  })

  test('the activity limit defaults to 20 and must be 1 to 100', async ({ client }) => {
    for (const limit of ['0', '101', 'abc', '2.5']) {
      const response = await client.get('/activity').qs({ limit })
      response.assertStatus(422)
      response.assertBodyContains({
        error: { code: 'validation_failed', fields: [{ field: 'limit' }] },
      })
    }
    const response = await client.get('/activity')
    response.assertStatus(200)
  })
})
