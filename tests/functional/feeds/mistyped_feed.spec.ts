import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { newOwner, registerProvider } from '#tests/support/providers'

test.group('A mistyped feed id', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

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
        },
      })
    })

  test('suggests nothing when no feed is close', async ({ client }) => {
    const response = await client.get('/feeds/no-such-feed')

    response.assertStatus(404)
    response.assertBody({ error: { code: 'feed_not_found', message: 'No feed "no-such-feed"' } })
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
      },
    })
  })
})
