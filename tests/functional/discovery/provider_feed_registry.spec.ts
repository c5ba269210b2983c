import { test } from '@japa/runner'
import { expectStatus } from '#tests/support/providers'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { feedDeclaration } from '#feeds/feed_declaration'
import Feed from '#models/feed'
import { PRICES_EXAMPLE } from '#tests/support/feeds'
import { providerWithDeclaredFeed } from '#tests/support/discovery'
import { inGlobalTransaction } from '#tests/support/database'

test.group('GET /registry/provider-feeds', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test("lists providers' live feeds with their provider, freshness and declaration", async ({
    client,
    assert,
  }) => {
    const { provider } = await providerWithDeclaredFeed(client)

    const response = await client.get('/registry/provider-feeds')

    response.assertStatus(200)
    const body = response.body()
    assert.containsSubset(body, { page: 1, size: 20, total: 2, pages: 1, more: false })
    const [btc, eth] = body.feeds
    assert.deepEqual(btc, {
      id: 'acme-data/btc-price',
      endpoint: '/feeds/p/acme-data/btc-price',
      price_stx: 0.005,
      price_display: '0.005 STX',
      description: '',
      category: 'provider',
      update_frequency: null,
      stats: btc.stats,
      handle: 'acme-data',
      slug: 'btc-price',
      integration_mode: 'partner_bridge',
      freshness: { last_updated: null, age_seconds: null },
      has_data: true,
      declaration: { query: [], output: null },
    })
    assert.equal(eth.id, 'acme-data/eth-price')
    assert.equal(eth.description, 'Ether spot price from our matching engine')
    const ethRow = await Feed.query()
      .where({ providerId: provider.id, slug: 'eth-price' })
      .firstOrFail()
    assert.deepEqual(eth.declaration, JSON.parse(JSON.stringify(feedDeclaration(ethRow))))
    assert.deepEqual(
      eth.declaration.query.map((param: { name: string }) => param.name),
      ['symbol']
    )
    assert.deepEqual(eth.declaration.output.example.data, PRICES_EXAMPLE)
    assert.equal(eth.declaration.output.schema.properties.data.$defs.price.required[0], 'symbol')

    // The spec's registry keeps its built-in entries only.
    const registry = await client.get('/registry/feeds')
    assert.sameMembers(
      registry.body().feeds.map((feed: { id: string }) => feed.id),
      BUILTIN_FEEDS.map((feed) => feed.id)
    )
  })

  test('pages through them, and leaves out paused and deleted feeds', async ({
    client,
    assert,
  }) => {
    const { owner, provider } = await providerWithDeclaredFeed(client)
    const second = await client.get('/registry/provider-feeds').qs({ page: 2, size: 1 })
    second.assertStatus(200)
    assert.containsSubset(second.body(), { page: 2, size: 1, total: 2, pages: 2 })
    assert.deepEqual(
      second.body().feeds.map((feed: { id: string }) => feed.id),
      ['acme-data/eth-price']
    )

    const feeds = `/providers/id/${provider.id}/feeds`
    await expectStatus(
      client.patch(`${feeds}/eth-price/state`).bearerToken(owner.token).json({ active: false }),
      200
    )
    const afterPause = await client.get('/registry/provider-feeds')
    assert.deepEqual(
      afterPause.body().feeds.map((feed: { id: string }) => feed.id),
      ['acme-data/btc-price']
    )
    await expectStatus(client.delete(`${feeds}/btc-price`).bearerToken(owner.token), 204)
    const afterDelete = await client.get('/registry/provider-feeds')
    assert.deepEqual(afterDelete.body().feeds, [])
    assert.equal(afterDelete.body().total, 0)
  })

  test('refuses a page or size out of bounds with validation_failed', async ({
    client,
    assert,
  }) => {
    for (const qs of [{ page: 0 }, { page: 101 }, { size: 0 }, { size: 1000 }, { page: 'two' }]) {
      const response = await client.get('/registry/provider-feeds').qs(qs)
      response.assertStatus(422)
      assert.equal(response.body().error.code, 'validation_failed', JSON.stringify(qs))
      assert.equal(response.body().error.fields[0].field, Object.keys(qs)[0])
    }
  })
})
