import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import db from '@adonisjs/lucid/services/db'
import { feedPaths, paidFeedPath } from '#feeds/feed_paths'
import { resourceIdentity } from '#payments/x402'
import { paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { newOwner, registerProvider } from '#tests/support/providers'
import { transfer } from '#tests/support/devnet'
import { registerPushAndUploadFeeds } from '#tests/support/hosted_mirror'
import { AppConfig } from '#core/app_config'

test.group('The paid feed path, from the routes that serve it', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  test('the built path is the one the router serves the feed at', async ({ client, assert }) => {
    const { token } = await newOwner(client)
    const { provider } = await registerProvider(client, token)
    const builtin = paidFeedPath({ id: 'whale-alerts' })
    const owned = paidFeedPath({ handle: provider.handle, slug: 'btc-price' })

    assert.equal(builtin, '/feeds/whale-alerts')
    assert.equal(owned, '/feeds/p/acme-data/btc-price')
    const builtinRoute = router.match(builtin, 'GET', true)
    assert.equal(builtinRoute?.route.name, 'feeds.builtin')
    assert.deepEqual(builtinRoute?.params, { id: 'whale-alerts' })
    const ownedRoute = router.match(owned, 'GET', true)
    assert.equal(ownedRoute?.route.name, 'feeds.provider')
    assert.deepEqual(ownedRoute?.params, { handle: 'acme-data', slug: 'btc-price' })
    assert.equal(feedPaths('whale-alerts').endpoint, builtin)
    assert.equal(feedPaths('acme-data/btc-price').endpoint, owned)

    const { publicUrl } = await app.container.make(AppConfig)
    for (const path of [builtin, owned]) {
      const quote = await client.get(path)
      quote.assertStatus(402)
      assert.equal(quote.body().resource.url, `${publicUrl}${path}`)
    }
  })

  test("a replayed payment's stored resource is the built path", async ({ client, assert }) => {
    // A provider's upload feed: served from its stored document, no upstream in the way.
    const { token, uploadPath } = await registerPushAndUploadFeeds(client)
    const upload = await client.post(uploadPath).bearerToken(token).json({ rate: 1.25 })
    upload.assertStatus(200)
    const path = paidFeedPath({ handle: 'mirror-co', slug: 'rates' })
    const quote = await client.get(path)
    const required = quote.body()
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n })
    const header = paymentHeader(required, tx.serialize(), 'client-secret-id-0001')

    const first = await client.get(path).header('payment-signature', header)
    const replay = await client.get(path).header('payment-signature', header)

    assert.equal(first.status(), 200, first.text())
    replay.assertStatus(200)
    assert.equal(replay.text(), first.text())
    const payment = await db.from('payments').where('txid', tx.txid()).firstOrFail()
    assert.equal(payment.resource, resourceIdentity('GET', path, {}))
  })
})
