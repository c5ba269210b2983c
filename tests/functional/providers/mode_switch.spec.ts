import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { ProvidersConfig } from '#provider_accounts/define_config'
import { createFeeds } from '#tests/support/feeds'
import { mirrorRegistration, newOwner, registerProvider } from '#tests/support/providers'
import { changeConfig } from '#tests/support/config'
import { inGlobalTransaction } from '#tests/support/database'

test.group('Switching integration mode with many feeds', (group) => {
  group.each.setup(() => inGlobalTransaction())

  /** A Hosted Mirror provider with `count` live upload feeds (feed-0 … feed-<count - 1>). */
  async function mirrorProviderWith(client: Parameters<typeof newOwner>[0], count: number) {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(
      client,
      owner.token,
      mirrorRegistration({ type: 'manual_upload' }, 'feed-0')
    )
    await db.table('feeds').multiInsert(
      Array.from({ length: count - 1 }, (_, index) => ({
        provider_id: provider.id,
        slug: `feed-${index + 1}`,
        display_name: `Feed ${index + 1}`,
        price_microstx: 5_000,
        source_type: 'manual_upload',
      }))
    )
    return { owner, providerId: provider.id }
  }

  const partnerFeeds = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      slug: `feed-${index}`,
      source_path: `/v1/feeds/${index}`,
    }))

  test('a provider with more than 100 live feeds switches in one request', async ({
    client,
    assert,
  }) => {
    const { feedLimits } = await app.container.make(ProvidersConfig)
    const restoreLimits = changeConfig(feedLimits, { liveFeedsPerProvider: 150 })
    try {
      const { owner, providerId } = await mirrorProviderWith(client, 120)

      const switched = await client
        .post(`/providers/id/${providerId}/mode`)
        .bearerToken(owner.token)
        .json({
          integration_mode: 'partner_bridge',
          partner_endpoint: 'http://127.0.0.1:9',
          feeds: partnerFeeds(120),
        })

      switched.assertStatus(200)
      assert.equal(switched.body().provider.integration_mode, 'partner_bridge')
      assert.lengthOf(switched.body().provider.feeds, 120)
      const moved = await db
        .from('feeds')
        .where('provider_id', providerId)
        .where('source_type', 'partner_bridge')
        .count('* as count')
      assert.equal(Number(moved[0].count), 120)
    } finally {
      restoreLimits()
    }
  })

  test('a provider already over the live-feed cap (lowered, or older than it) still switches, naming every live feed', async ({
    client,
    assert,
  }) => {
    // 102 live feeds, over the default cap of 100: feed-0 and feed-1, then feed-2 … feed-101.
    const { owner, providerId } = await mirrorProviderWith(client, 2)
    await createFeeds(providerId, 100, (n) => ({ slug: `feed-${n + 1}` }))

    const switched = await client
      .post(`/providers/id/${providerId}/mode`)
      .bearerToken(owner.token)
      .json({
        integration_mode: 'partner_bridge',
        partner_endpoint: 'http://127.0.0.1:9',
        feeds: partnerFeeds(102),
      })

    switched.assertStatus(200)
    assert.lengthOf(switched.body().provider.feeds, 102)
  })
})
