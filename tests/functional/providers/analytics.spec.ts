import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { randomPrivateKey } from '@stacks/transactions'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import { sources as driverFactories } from '#feeds/define_config'
import { FeedCache } from '#feeds/feed_cache'
import { FeedReader } from '#feeds/feed_reader'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { FeedStats } from '#feeds/feed_stats'
import sources from '#feeds/services/main'
import { type ShiftedClock, useShiftedClock } from '#tests/support/clock'
import { transfer } from '#tests/support/devnet'
import { paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { type PartnerServer, startPartnerServer } from '#tests/support/partner_server'
import { expectStatus, registerProvider } from '#tests/support/providers'
import { signIn } from '#tests/support/sign_in'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Day 0 of every scenario: Wednesday 10 March 2027, 00:00 UTC. */
const DAY_0 = Date.parse('2027-03-10T00:00:00.000Z')
const BUYER_A = DEVNET_ACCOUNTS[1]
const BUYER_B = DEVNET_ACCOUNTS[3]
const PRICES = { 'btc-price': 5_000n, 'eth-volume': 10_000n }
type Slug = keyof typeof PRICES

/** An instant `day` days after day 0 (negative: before), at hh:mm UTC. */
function at(day: number, hour: number, minute = 0) {
  return DAY_0 + day * DAY + hour * HOUR + minute * 60_000
}

test.group('Provider analytics', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  let partner: PartnerServer
  let clock: ShiftedClock
  let nonces: Map<string, bigint>
  let owner: { key: string; providerId: string }

  group.each.setup(async () => {
    nonces = new Map()
    partner = await startPartnerServer({
      routes: ['/v1/prices', '/v1/volumes'],
      now: () => clock.now(),
    })
    sources.fake(
      'partner_bridge',
      driverFactories.partnerBridge({ timeoutMs: 5_000, maxBytes: 1_048_576 })
    )
    const shifted = useShiftedClock()
    clock = shifted.clock
    // The reader (a singleton) records source calls: one on the shifted clock dates them too.
    const reader = new FeedReader(
      await app.container.make(FeedSourceManager),
      await app.container.make(FeedCache),
      await app.container.make(FeedStats),
      clock
    )
    app.container.swap(FeedReader, () => reader)
    return async () => {
      app.container.restore(FeedReader)
      shifted.restore()
      await sources.restore('partner_bridge')
      await partner.close()
    }
  })

  /** At `when`, an owner registers acme-data: btc-price (0.005 STX) and eth-volume (0.01 STX). */
  async function registerAt(client: ApiClient, when: number) {
    clock.set(when)
    const key = randomPrivateKey()
    const { token } = await signIn(client, key)
    const body = await registerProvider(client, token, {
      partner_endpoint: partner.url,
      feed: {
        slug: 'btc-price',
        display_name: 'BTC',
        price_stx: '0.005',
        source_path: '/v1/prices',
      },
    })
    partner.secret = body.hmac_secret!
    await expectStatus(
      client.post(`/providers/id/${body.provider.id}/feeds`).bearerToken(token).json({
        slug: 'eth-volume',
        display_name: 'ETH',
        price_stx: '0.01',
        source_path: '/v1/volumes',
      }),
      201
    )
    owner = { key, providerId: body.provider.id }
  }

  /** At `when`, `buyer` pays for one call of the feed; its nonce moves on only once the call is paid. */
  async function payAt(client: ApiClient, when: number, buyer: typeof BUYER_A, slug: Slug) {
    clock.set(when)
    const path = `/feeds/p/acme-data/${slug}`
    const quote = await client.get(path)
    quote.assertStatus(402)
    const nonce = nonces.get(buyer.address) ?? 0n
    const tx = await transfer({
      senderKey: buyer.privateKey,
      recipient: stack.payTo,
      amount: PRICES[slug],
      nonce,
    })
    const response = await client
      .get(path)
      .header('payment-signature', paymentHeader(quote.body(), tx.serialize()))
    if (response.status() === 200) nonces.set(buyer.address, nonce + 1n)
    return response
  }

  /** The owner's analytics as read at `when` (signed in then, so the session is current). */
  async function analyticsAt(client: ApiClient, when: number) {
    clock.set(when)
    const { token } = await signIn(client, owner.key)
    const response = await client
      .get(`/providers/id/${owner.providerId}/analytics`)
      .bearerToken(token)
    response.assertStatus(200)
    return response.body()
  }

  /**
   * A on day −3 (btc-price); A (btc-price) and B (eth-volume) on day −1 at
   * 09:00; B (eth-volume) on day 0 at 08:00. The provider earns 4 850 per
   * btc-price call and 9 700 per eth-volume call.
   */
  async function fourPaidCalls(client: ApiClient) {
    await registerAt(client, at(-3, 9))
    await expectStatus(payAt(client, at(-3, 10), BUYER_A, 'btc-price'), 200)
    await expectStatus(payAt(client, at(-1, 9), BUYER_A, 'btc-price'), 200)
    await expectStatus(payAt(client, at(-1, 9), BUYER_B, 'eth-volume'), 200)
    await expectStatus(payAt(client, at(0, 8), BUYER_B, 'eth-volume'), 200)
  }

  test('24 h and 7 days follow the clock; revenue is the provider’s 97 % share', async ({
    client,
    assert,
  }) => {
    await fourPaidCalls(client)

    // 08:30: the 24 hourly buckets start at 09:00 yesterday, so both of yesterday's calls count.
    assert.containsSubset(await analyticsAt(client, at(0, 8, 30)), {
      last_24h_since: '2027-03-09T09:00:00.000Z',
      queries_24h: 3,
      revenue_24h_microstx: 4_850 + 9_700 + 9_700,
      queries_7d: 4,
      revenue_7d_microstx: 29_100,
    })
    // 10:00: they have left the last 24 h, not the last 7 days.
    const today = await analyticsAt(client, at(0, 10))
    assert.containsSubset(today, {
      last_24h_since: '2027-03-09T11:00:00.000Z',
      last_7d_since: '2027-03-04T00:00:00.000Z',
      queries_24h: 1,
      revenue_24h_microstx: 9_700,
      queries_7d: 4,
      revenue_7d_microstx: 29_100,
      pending_revenue: 29_100,
      lifetime_earned: 29_100,
      total_withdrawn: 0,
    })
    assert.match(today.as_of, /^2027-03-10T10:0\d:\d\d\.\d{3}Z$/)
    // Day −3 leaves the 7 days on day 4; the balances are not windowed.
    assert.containsSubset(await analyticsAt(client, at(4, 10)), {
      last_7d_since: '2027-03-08T00:00:00.000Z',
      queries_24h: 0,
      revenue_24h_microstx: 0,
      queries_7d: 3,
      revenue_7d_microstx: 24_250,
      pending_revenue: 29_100,
    })
    const later = await analyticsAt(client, at(7, 10))
    assert.containsSubset(later, { queries_7d: 0, revenue_7d_microstx: 0, unique_buyers_7d: 0 })
    assert.isTrue(later.day_breakdown.every((day: { queries: number }) => day.queries === 0))
    assert.equal(later.lifetime_earned, 29_100)
  })

  test('a buyer paying on several days counts once; per-feed and per-day breakdowns', async ({
    client,
    assert,
  }) => {
    await fourPaidCalls(client)

    const body = await analyticsAt(client, at(0, 10))

    assert.equal(body.unique_buyers_7d, 2)
    const logged = await db.from('query_log').select('feed_id', 'response_ms')
    const mean = (values: number[]) =>
      Math.round(values.reduce((sum, value) => sum + value, 0) / values.length)
    assert.equal(body.avg_response_ms, mean(logged.map((row) => row.response_ms)))
    assert.deepEqual(
      body.feed_breakdown.map(
        ({ avg_response_ms: _, ...feed }: { avg_response_ms: number }) => feed
      ),
      [
        {
          slug: 'btc-price',
          status: 'active',
          queries: 2,
          revenue_microstx: 9_700,
          gross_microstx: 10_000,
          unique_buyers: 1,
          errors: 0,
          error_rate: 0,
        },
        {
          slug: 'eth-volume',
          status: 'active',
          queries: 2,
          revenue_microstx: 19_400,
          gross_microstx: 20_000,
          unique_buyers: 1,
          errors: 0,
          error_rate: 0,
        },
      ]
    )
    assert.deepEqual(
      body.day_breakdown.map((day: Record<string, unknown>) => [
        day.day,
        day.queries,
        day.revenue_microstx,
        day.unique_buyers,
      ]),
      [
        ['2027-03-04', 0, 0, 0],
        ['2027-03-05', 0, 0, 0],
        ['2027-03-06', 0, 0, 0],
        ['2027-03-07', 1, 4_850, 1],
        ['2027-03-08', 0, 0, 0],
        ['2027-03-09', 2, 14_550, 2],
        ['2027-03-10', 1, 9_700, 1],
      ]
    )
    assert.deepInclude(body.day_breakdown, {
      day: '2027-03-08',
      queries: 0,
      revenue_microstx: 0,
      gross_microstx: 0,
      unique_buyers: 0,
      avg_response_ms: 0,
      errors: 0,
      error_rate: 0,
    })

    // Up to day 5 A's call of day −1 is within the 7 days; from day 6 only B's of day 0.
    const dayFive = await analyticsAt(client, at(5, 10))
    assert.equal(dayFive.unique_buyers_7d, 2)
    const daySix = await analyticsAt(client, at(6, 10))
    assert.equal(daySix.unique_buyers_7d, 1)

    // A deleted feed with calls in the window stays listed: its revenue is in the totals.
    clock.set(at(0, 11))
    const { token } = await signIn(client, owner.key)
    await expectStatus(
      client.delete(`/providers/id/${owner.providerId}/feeds/eth-volume`).bearerToken(token),
      204
    )
    const afterDelete = await analyticsAt(client, at(0, 12))
    assert.equal(afterDelete.revenue_7d_microstx, 29_100)
    assert.containsSubset(afterDelete.feed_breakdown, [
      { slug: 'eth-volume', status: 'deleted', queries: 2 },
    ])
  })

  test('a failure of the source counts in the error rate and charges nothing', async ({
    client,
    assert,
  }) => {
    await registerAt(client, at(0, 8))
    await expectStatus(payAt(client, at(0, 9), BUYER_A, 'btc-price'), 200)
    partner.behaviour = 'error500'
    const failed = await payAt(client, at(0, 9, 5), BUYER_A, 'btc-price')
    failed.assertStatus(503)
    assert.equal(failed.body().error.code, 'source_unavailable')

    const body = await analyticsAt(client, at(0, 10))

    assert.containsSubset(body, {
      queries_7d: 1,
      revenue_7d_microstx: 4_850,
      pending_revenue: 4_850,
      error_rate: 0.5,
    })
    assert.containsSubset(body.feed_breakdown, [
      { slug: 'btc-price', queries: 1, errors: 1, error_rate: 0.5 },
      { slug: 'eth-volume', queries: 0, errors: 0, error_rate: 0 },
    ])
    assert.containsSubset(body.day_breakdown, [
      { day: '2027-03-10', queries: 1, errors: 1, error_rate: 0.5 },
    ])
  })

  test('only the owner reads them: another wallet 403, no session 401, unknown id 404', async ({
    client,
    assert,
  }) => {
    await registerAt(client, at(0, 8))
    const url = `/providers/id/${owner.providerId}/analytics`
    const intruder = await signIn(client, randomPrivateKey())

    const foreign = await client.get(url).bearerToken(intruder.token)
    foreign.assertStatus(403)
    assert.equal(foreign.body().error.code, 'not_owner')
    const anonymous = await client.get(url)
    anonymous.assertStatus(401)
    assert.equal(anonymous.body().error.code, 'unauthenticated')
    const unknown = await client
      .get('/providers/id/00000000-0000-4000-8000-000000000000/analytics')
      .bearerToken(intruder.token)
    unknown.assertStatus(404)
    assert.equal(unknown.body().error.code, 'provider_not_found')

    const empty = await analyticsAt(client, at(0, 9))
    assert.containsSubset(empty, {
      queries_24h: 0,
      queries_7d: 0,
      revenue_24h_microstx: 0,
      revenue_7d_microstx: 0,
      unique_buyers_7d: 0,
      avg_response_ms: 0,
      error_rate: 0,
      pending_revenue: 0,
    })
    assert.lengthOf(empty.feed_breakdown, 2)
    assert.lengthOf(empty.day_breakdown, 7)
  })
})
