import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { FeedDirectory } from '#feeds/feed_directory'
import Feed from '#models/feed'
import { createFeed } from '#tests/support/feeds'
import { createProviderRow, newOwner, registerProvider } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

test.group('A mistyped feed id', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('is a 404 suggesting the built-in feed {typed} probably meant')
    .with([
      { typed: 'whale-alert', meant: 'whale-alerts' },
      { typed: 'gas-predicton', meant: 'gas-prediction' },
      { typed: 'Token-Intel', meant: 'token-intel' },
    ])
    .run(async ({ client }, { typed, meant }) => {
      const response = await client.get(`/feeds/${typed}`)

      response.assertStatus(404)
      response.assertBody({
        error: {
          code: 'feed_not_found',
          message: `No feed "${typed}"; did you mean "${meant}"?`,
          suggestion: meant,
          request_id: response.header('x-request-id'),
        },
      })
    })

  test('suggests nothing when no feed is close', async ({ client }) => {
    const response = await client.get('/feeds/no-such-feed')

    response.assertStatus(404)
    response.assertBody({
      error: {
        code: 'feed_not_found',
        message: 'No feed "no-such-feed"',
        request_id: response.header('x-request-id'),
      },
    })
  })

  test("suggests the provider's own feed on a provider feed path", async ({ client }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token)

    const response = await client.get('/feeds/p/acme-data/btc-prise')

    response.assertStatus(404)
    response.assertBody({
      error: {
        code: 'feed_not_found',
        message: 'No feed "acme-data/btc-prise"; did you mean "acme-data/btc-price"?',
        suggestion: 'acme-data/btc-price',
        request_id: response.header('x-request-id'),
      },
    })
  })

  test('never suggests a feed whose page would 404: paused, or of a pending provider', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const paused = await client
      .patch(`/providers/id/${provider.id}/feeds/btc-price/state`)
      .bearerToken(owner.token)
      .json({ active: false })
    paused.assertStatus(200)
    const pending = await createProviderRow('pending-co')
    await pending.merge({ status: 'pending' }).save()
    await createFeed({ providerId: pending.id, slug: 'eth-price', sourceType: 'manual_upload' })
    await Feed.query()
      .where('slug', 'whale-alerts')
      .whereNull('provider_id')
      .update({ status: 'paused' })
    const directory = await app.container.make(FeedDirectory)
    directory.forget()

    for (const name of ['acme-data/btc-prise', 'pending-co/eth-prise', 'whale-alertz']) {
      const api = await client.get(`/feeds/${name.includes('/') ? `p/${name}` : name}`)
      api.assertStatus(404)
      assert.notProperty(api.body().error, 'suggestion', name)
      const page = await client
        .get(`/market/feeds/${name.includes('/') ? `p/${name}` : name}`)
        .header('accept', 'text/html')
      page.assertStatus(404)
      assert.notInclude(page.text(), 'Did you mean', name)
    }
  })
})
