import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { HTTPFacilitatorClient } from '@x402/core/http'
import {
  validateDiscoveryExtension,
  withBazaar,
  type DiscoveryExtension,
  type DiscoveryResource,
} from '@x402/extensions/bazaar'
import { PlatformWallet } from '#chain/platform_wallet'
import { publicUrl } from '#core/public_url'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { paidFeedPath } from '#feeds/feed_paths'
import { PRICES_EXAMPLE } from '#tests/support/feeds'
import { providerWithDeclaredFeed } from '#tests/support/discovery'
import { inGlobalTransaction } from '#tests/support/database'

/** @x402/extensions' own client, against this test server's facilitator. */
function bazaarClient() {
  const base = `http://${env.get('HOST')}:${env.get('PORT')}`
  return withBazaar(new HTTPFacilitatorClient({ url: `${base}/facilitator` })).extensions.bazaar
}

const LIVE = BUILTIN_FEEDS.length + 2
const ETH = publicUrl(paidFeedPath({ handle: 'acme-data', slug: 'eth-price' }))
const BTC = publicUrl(paidFeedPath({ handle: 'acme-data', slug: 'btc-price' }))

function assertValidBazaar(resource: DiscoveryResource, assert: any) {
  const verdict = validateDiscoveryExtension(resource.extensions!.bazaar as DiscoveryExtension)
  assert.isTrue(verdict.valid, `${resource.resource}: ${JSON.stringify(verdict.errors)}`)
}

test.group('The facilitator discovery API, read by @x402/extensions', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test("lists every live feed with its 402's requirement and Bazaar extension", async ({
    client,
    assert,
  }) => {
    await providerWithDeclaredFeed(client)
    const wallet = await app.container.make(PlatformWallet)
    const bazaar = bazaarClient()

    const all = await bazaar.listResources({ limit: 50 })

    assert.equal(all.x402Version, 2)
    assert.deepEqual(all.pagination, { limit: 50, offset: 0, total: LIVE })
    assert.lengthOf(all.items, LIVE)
    for (const item of all.items) {
      assert.containsSubset(item, {
        type: 'http',
        x402Version: 2,
        mimeType: 'application/json',
        serviceName: 'Tollbooth',
      })
      assert.isString(item.description)
      assert.equal(new Date(item.lastUpdated).toISOString(), item.lastUpdated)
      assertValidBazaar(item, assert)
      // The same requirement the feed's own 402 gives.
      const path = new URL(item.resource).pathname
      const required = await client.get(path).qs(exampleQuery(item))
      required.assertStatus(402)
      assert.deepEqual(item.accepts, required.body().accepts, path)
      assert.equal(item.accepts[0].payTo, wallet.address)
    }
    const eth = all.items.find((item) => item.resource === ETH)!
    const btc = all.items.find((item) => item.resource === BTC)!
    assert.equal(eth.description, 'Ether spot price from our matching engine')
    assert.deepEqual(eth.tags, ['provider', 'acme-data'])
    assert.equal(eth.accepts[0].amount, '7000')
    const ethInfo = (eth.extensions!.bazaar as any).info
    assert.deepEqual(ethInfo.output.example.data, PRICES_EXAMPLE)
    assert.deepEqual(
      Object.keys(
        (eth.extensions!.bazaar as any).schema.properties.input.properties.queryParams.properties
      ),
      ['symbol']
    )
    assert.notProperty((btc.extensions!.bazaar as any).info, 'output', 'no output declared')
  })

  test('filters and pages by limit and offset', async ({ client, assert }) => {
    await providerWithDeclaredFeed(client)
    const wallet = await app.container.make(PlatformWallet)
    const bazaar = bazaarClient()
    const all = await bazaar.listResources({ limit: 50 })

    const page = await bazaar.listResources({
      type: 'http',
      network: 'stacks:2147483648',
      payTo: wallet.address,
      scheme: 'exact',
      extensions: 'bazaar',
      limit: 5,
      offset: LIVE - 3,
    })
    assert.deepEqual(page.pagination, { limit: 5, offset: LIVE - 3, total: LIVE })
    assert.deepEqual(
      page.items.map((item) => item.resource),
      all.items.slice(LIVE - 3).map((item) => item.resource)
    )
    assert.deepEqual(
      page.items.slice(-2).map((item) => item.resource),
      [BTC, ETH]
    )

    for (const filter of [
      { network: 'eip155:8453' },
      { type: 'mcp' },
      { scheme: 'upto' },
      { payTo: 'SP000000000000000000002Q6VF78' },
      { extensions: 'sign-in-with-x' },
    ]) {
      const none = await bazaar.listResources(filter)
      assert.deepEqual(none.items, [], JSON.stringify(filter))
      assert.equal(none.pagination.total, 0)
    }
    for (const extensions of ['bazaar', 'payment-identifier']) {
      const declaring = await bazaar.listResources({ extensions })
      assert.equal(declaring.pagination.total, LIVE, extensions)
      assert.property(declaring.items[0].extensions, extensions)
    }
  })

  test('searches names, descriptions, categories and providers, a cursor to the next page', async ({
    client,
    assert,
  }) => {
    await providerWithDeclaredFeed(client)
    const bazaar = bazaarClient()

    const byProvider = await bazaar.search({ query: 'acme', limit: 1 })
    assert.equal(byProvider.x402Version, 2)
    assert.deepEqual(
      byProvider.resources.map((item) => item.resource),
      [BTC]
    )
    assert.isFalse(byProvider.partialResults)
    assert.equal(byProvider.pagination!.limit, 1)
    const cursor = byProvider.pagination!.cursor
    assert.isString(cursor)

    const next = await bazaar.search({ query: 'acme', limit: 1, cursor: cursor! })
    assert.deepEqual(
      next.resources.map((item) => item.resource),
      [ETH]
    )
    assert.isNull(next.pagination!.cursor, 'the last page has no cursor')
    assertValidBazaar(next.resources[0], assert)

    const byDescription = await bazaar.search({ query: 'ETHER matching' })
    assert.deepEqual(
      byDescription.resources.map((item) => item.resource),
      [ETH]
    )

    const builtin = BUILTIN_FEEDS[0]
    const byCategory = await bazaar.search({ query: builtin.category })
    assert.includeMembers(
      byCategory.resources.map((item) => item.resource.split('?')[0]),
      BUILTIN_FEEDS.filter((feed) => feed.category === builtin.category).map((feed) =>
        publicUrl(paidFeedPath({ id: feed.id }))
      )
    )

    const elsewhere = await bazaar.search({ query: 'acme', network: 'eip155:8453' })
    assert.deepEqual(elsewhere.resources, [])
    assert.deepEqual(elsewhere.pagination, { limit: 0, cursor: null })
  })

  test('refuses absurd limits, offsets, cursors, queries and filters with validation_failed', async ({
    client,
    assert,
  }) => {
    const cases: [string, Record<string, string>, string][] = [
      ['resources', { limit: '0' }, 'limit'],
      ['resources', { limit: '51' }, 'limit'],
      ['resources', { limit: '1e9' }, 'limit'],
      ['resources', { limit: 'ten' }, 'limit'],
      ['resources', { offset: '-1' }, 'offset'],
      ['resources', { offset: '99999999999999999999' }, 'offset'],
      ['resources', { offset: '1.5' }, 'offset'],
      ['resources', { type: 'ftp' }, 'type'],
      ['resources', { network: 'stacks' }, 'network'],
      ['resources', { network: `stacks:${'9'.repeat(200)}` }, 'network'],
      ['resources', { payTo: 'x'.repeat(300) }, 'payTo'],
      ['resources', { scheme: 'EXACT!' }, 'scheme'],
      ['resources', { extensions: 'a b' }, 'extensions'],
      ['search', {}, 'query'],
      ['search', { query: '   ' }, 'query'],
      ['search', { query: 'x'.repeat(101) }, 'query'],
      ['search', { query: 'btc', limit: '-5' }, 'limit'],
      ['search', { query: 'btc', cursor: 'not-a-cursor' }, 'cursor'],
      ['search', { query: 'btc', cursor: Buffer.from('o-1').toString('base64url') }, 'cursor'],
      [
        'search',
        { query: 'btc', cursor: Buffer.from('o99999999').toString('base64url') },
        'cursor',
      ],
      ['search', { query: 'btc', cursor: 'A'.repeat(5000) }, 'cursor'],
    ]
    for (const [route, qs, field] of cases) {
      const response = await client.get(`/facilitator/discovery/${route}`).qs(qs)
      const label = `${route} ${JSON.stringify(qs).slice(0, 80)}`
      assert.equal(response.status(), 422, label)
      assert.equal(response.body().error.code, 'validation_failed', label)
      assert.equal(response.body().error.fields[0].field, field, label)
    }
  })
})

/** The query a feed's Bazaar extension gives as its example input (enough for its 402). */
function exampleQuery(item: DiscoveryResource): Record<string, string> {
  const info = (item.extensions!.bazaar as any).info
  return Object.fromEntries(
    Object.entries(info.input.queryParams ?? {}).map(([name, value]) => [name, String(value)])
  )
}
