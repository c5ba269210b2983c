import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { expectStatus } from '#tests/support/providers'
import { providerWithDeclaredFeed } from '#tests/support/discovery'
import { inGlobalTransaction } from '#tests/support/database'

/** The paid paths of the feed cards a page shows, in its order. */
function cardPaths(html: string) {
  return [...html.matchAll(/<h3><a href="\/market(\/feeds\/[^"]+)">/g)].map((match) => match[1])
}

test.group('The pages and the machine listings show the same feeds', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('the marketplace, a provider page, the discovery API and the registry agree', async ({
    client,
    assert,
  }) => {
    const { owner, provider } = await providerWithDeclaredFeed(client)
    const feeds = `/providers/id/${provider.id}/feeds`
    for (const slug of ['sol-price', 'xrp-price']) {
      const created = await client
        .post(feeds)
        .bearerToken(owner.token)
        .json({ slug, display_name: slug, price_stx: '0.005', source_path: `/v1/${slug}` })
      created.assertStatus(201)
    }
    await expectStatus(
      client.patch(`${feeds}/sol-price/state`).bearerToken(owner.token).json({ active: false }),
      200
    )
    await expectStatus(client.delete(`${feeds}/xrp-price`).bearerToken(owner.token), 204)

    const resources = await client.get('/facilitator/discovery/resources').qs({ limit: 50 })
    const listed = resources
      .body()
      .items.map((item: { resource: string }) => new URL(item.resource).pathname)
    const home = await client.get('/')
    home.assertStatus(200)
    assert.deepEqual(cardPaths(home.text()), listed)
    assert.notInclude(listed, '/feeds/p/acme-data/sol-price')
    assert.notInclude(listed, '/feeds/p/acme-data/xrp-price')

    const registry = await client.get('/registry/provider-feeds')
    const providerPage = await client.get('/market/providers/acme-data')
    providerPage.assertStatus(200)
    const registered = registry.body().feeds.map((feed: { endpoint: string }) => feed.endpoint)
    assert.deepEqual(cardPaths(providerPage.text()), registered)
    assert.deepEqual(registered, ['/feeds/p/acme-data/btc-price', '/feeds/p/acme-data/eth-price'])
    assert.deepEqual(
      listed.filter((path: string) => path.startsWith('/feeds/p/')),
      registered
    )
  })

  test('a provider that is not active has none of its feeds listed anywhere', async ({
    client,
    assert,
  }) => {
    const { provider } = await providerWithDeclaredFeed(client)
    await db.from('providers').where('id', provider.id).update({ status: 'pending' })

    const resources = await client.get('/facilitator/discovery/resources').qs({ limit: 50 })
    const search = await client.get('/facilitator/discovery/search').qs({ query: 'price' })
    const registry = await client.get('/registry/provider-feeds')
    const wellKnown = await client.get('/.well-known/x402')
    const home = await client.get('/')

    const mentioned = [
      ...resources.body().items.map((item: { resource: string }) => item.resource),
      ...search.body().resources.map((item: { resource: string }) => item.resource),
      ...registry.body().feeds.map((feed: { endpoint: string }) => feed.endpoint),
      ...wellKnown.body().resources,
      ...cardPaths(home.text()),
    ]
    assert.isNotEmpty(resources.body().items)
    assert.notMatch(mentioned.join(' '), /acme-data/)
  })
})
