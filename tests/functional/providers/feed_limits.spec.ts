import { test } from '@japa/runner'
import type { Group } from '@japa/runner/core'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { type FeedLimits, ProvidersConfig } from '#provider_accounts/define_config'
import { emptyMarketplace, inGlobalTransaction } from '#tests/support/database'
import {
  expectStatus,
  mirrorRegistration,
  newOwner,
  postRegistration,
  registerProvider,
} from '#tests/support/providers'

const providersConfig = await app.container.make(ProvidersConfig)

function feedLimits() {
  return providersConfig.feedLimits
}

/** Sets some feed caps for one test (restoreFeedLimitsAfterEach puts the configured ones back). */
function setFeedLimits(limits: Partial<FeedLimits>) {
  Object.assign(feedLimits(), limits)
}

function restoreFeedLimitsAfterEach(group: Group) {
  group.each.setup(() => {
    const configured = { ...feedLimits() }
    return () => {
      Object.assign(feedLimits(), configured)
    }
  })
}

function createFeed(
  client: ApiClient,
  token: string,
  providerId: string,
  slug: string,
  source: Record<string, unknown> = { source_path: '/v1/prices' }
) {
  return client
    .post(`/providers/id/${providerId}/feeds`)
    .bearerToken(token)
    .json({ slug, display_name: slug, price_stx: '0.005', ...source })
}

async function liveFeedCount(providerIds: string[]) {
  const [row] = await db
    .from('feeds')
    .whereIn('provider_id', providerIds)
    .whereNull('deleted_at')
    .count('* as count')
  return Number(row.count)
}

/** A polled source that fails at once (nothing listens on port 9): the feed is still created. */
const polled = (name: string) => ({
  source: { type: 'codehost_raw', url: `http://127.0.0.1:9/${name}.json` },
})

test.group('Feed caps', (group) => {
  group.each.setup(() => inGlobalTransaction())
  restoreFeedLimitsAfterEach(group)

  test('a provider has at most liveFeedsPerProvider live feeds, paused ones included; deleting one frees a place', async ({
    client,
    assert,
  }) => {
    setFeedLimits({ liveFeedsPerProvider: 3 })
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    await expectStatus(createFeed(client, owner.token, provider.id, 'eth-price'), 201)
    await expectStatus(createFeed(client, owner.token, provider.id, 'stx-price'), 201)
    await expectStatus(
      client
        .patch(`/providers/id/${provider.id}/feeds/stx-price/state`)
        .bearerToken(owner.token)
        .json({ active: false }),
      200
    )

    const refused = await createFeed(client, owner.token, provider.id, 'sol-price')

    refused.assertStatus(409)
    assert.equal(refused.body().error.code, 'feed_limit_reached')
    assert.include(refused.body().error.message, 'at most 3 live feeds')
    assert.equal(await liveFeedCount([provider.id]), 3)
    await expectStatus(
      client.delete(`/providers/id/${provider.id}/feeds/eth-price`).bearerToken(owner.token),
      204
    )
    await expectStatus(createFeed(client, owner.token, provider.id, 'sol-price'), 201)
  })

  test("an owner wallet's providers share liveFeedsPerOwner, a registration's first feed included", async ({
    client,
    assert,
  }) => {
    setFeedLimits({ liveFeedsPerOwner: 3 })
    const owner = await newOwner(client)
    const first = await registerProvider(client, owner.token)
    await expectStatus(createFeed(client, owner.token, first.provider.id, 'eth-price'), 201)
    const second = await registerProvider(client, owner.token, { handle: 'acme-two' })

    const refused = await createFeed(client, owner.token, second.provider.id, 'eth-price')
    refused.assertStatus(409)
    assert.equal(refused.body().error.code, 'feed_limit_reached')
    assert.include(refused.body().error.message, 'one owner wallet may have at most 3 live feeds')

    const registration = await postRegistration(client, owner.token, { handle: 'acme-three' })
    registration.assertStatus(409)
    assert.equal(registration.body().error.code, 'feed_limit_reached')
    const third = await db.from('providers').where('handle', 'acme-three').first()
    assert.isNull(third, 'the refused registration wrote nothing')
    await expectStatus(
      postRegistration(client, owner.token, { handle: 'acme-three', feed: undefined }),
      201
    )

    const stranger = await newOwner(client)
    await expectStatus(postRegistration(client, stranger.token, { handle: 'other-co' }), 201)
  })

  test('active polled feeds per owner wallet: a new one, a source changed to a polled type or a resume past the cap is refused', async ({
    client,
    assert,
  }) => {
    setFeedLimits({ polledFeedsPerOwner: 2 })
    const owner = await newOwner(client)
    const { provider } = await registerProvider(
      client,
      owner.token,
      mirrorRegistration(polled('a').source, 'a')
    )
    const feeds = `/providers/id/${provider.id}/feeds`
    await expectStatus(createFeed(client, owner.token, provider.id, 'b', polled('b')), 201)

    const third = await createFeed(client, owner.token, provider.id, 'c', polled('c'))
    third.assertStatus(409)
    assert.equal(third.body().error.code, 'feed_limit_reached')
    assert.include(third.body().error.message, 'at most 2 active feeds that Tollbooth polls')

    await expectStatus(
      createFeed(client, owner.token, provider.id, 'c', { source: { type: 'webhook_push' } }),
      201
    )
    const toPolled = await client.patch(`${feeds}/c`).bearerToken(owner.token).json(polled('c'))
    toPolled.assertStatus(409)
    assert.equal(toPolled.body().error.code, 'feed_limit_reached')
    const c = await db.from('feeds').where('slug', 'c').firstOrFail()
    assert.equal(c.source_type, 'webhook_push', 'the refused edit changed nothing')

    await expectStatus(
      client.patch(`${feeds}/b/state`).bearerToken(owner.token).json({ active: false }),
      200
    )
    await expectStatus(client.patch(`${feeds}/c`).bearerToken(owner.token).json(polled('c')), 200)
    const resumed = await client
      .patch(`${feeds}/b/state`)
      .bearerToken(owner.token)
      .json({ active: true })
    resumed.assertStatus(409)
    assert.equal(resumed.body().error.code, 'feed_limit_reached')
  })
  test('a mode switch that would poll more feeds than polledFeedsPerOwner is refused and changes nothing', async ({
    client,
    assert,
  }) => {
    setFeedLimits({ polledFeedsPerOwner: 2 })
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    for (const slug of ['eth-price', 'stx-price']) {
      await expectStatus(createFeed(client, owner.token, provider.id, slug), 201)
    }

    const switched = await client
      .post(`/providers/id/${provider.id}/mode`)
      .bearerToken(owner.token)
      .json({
        integration_mode: 'hosted_mirror',
        feeds: ['btc-price', 'eth-price', 'stx-price'].map((slug) => ({ slug, ...polled(slug) })),
      })

    switched.assertStatus(409)
    assert.equal(switched.body().error.code, 'feed_limit_reached')
    const row = await db.from('providers').where('id', provider.id).firstOrFail()
    assert.equal(row.integration_mode, 'partner_bridge')
    const sources = await db.from('feeds').where('provider_id', provider.id).select('source_type')
    assert.deepEqual(
      sources.map((feed) => feed.source_type),
      ['partner_bridge', 'partner_bridge', 'partner_bridge']
    )
  })
})

test.group('Feed caps under concurrent requests', (group) => {
  group.each.teardown(() => emptyMarketplace())
  restoreFeedLimitsAfterEach(group)

  test('ten creations at once, one on each provider of one owner: exactly the owner cap succeed', async ({
    client,
    assert,
  }) => {
    setFeedLimits({ liveFeedsPerOwner: 5 })
    const owner = await newOwner(client)
    const providers: string[] = []
    for (let index = 0; index < 10; index++) {
      const { provider } = await registerProvider(client, owner.token, {
        handle: `race-${index}`,
        feed: undefined,
      })
      providers.push(provider.id)
    }

    const answers = await Promise.all(
      providers.map((providerId) => createFeed(client, owner.token, providerId, 'btc-price'))
    )

    const statuses = answers.map((answer) => answer.status())
    assert.equal(statuses.filter((status) => status === 201).length, 5)
    assert.equal(statuses.filter((status) => status === 409).length, 5)
    assert.equal(await liveFeedCount(providers), 5)
  })
})
