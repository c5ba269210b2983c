import { test } from '@japa/runner'
import { validateDiscoveryExtension, type DiscoveryExtension } from '@x402/extensions/bazaar'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { paidFeedPath } from '#feeds/feed_paths'
import { decodeHeader } from '#tests/support/paid_calls'
import { PRICES_EXAMPLE } from '#tests/support/feeds'
import { providerWithDeclaredFeed } from '#tests/support/discovery'
import { inGlobalTransaction } from '#tests/support/database'

/** The Bazaar extension of a 402, checked by @x402/extensions' own validator. */
function bazaarOf(body: { extensions: Record<string, unknown> }, assert: any): DiscoveryExtension {
  const bazaar = body.extensions.bazaar as DiscoveryExtension
  assert.isObject(bazaar, 'the 402 carries extensions.bazaar')
  const verdict = validateDiscoveryExtension(bazaar)
  assert.isTrue(verdict.valid, JSON.stringify(verdict.errors))
  return bazaar
}

test.group('Every 402 carries the Bazaar discovery extension', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test("each built-in feed's says GET, its query parameters and its answer", async ({
    client,
    assert,
  }) => {
    for (const feed of BUILTIN_FEEDS) {
      const query = Object.fromEntries(
        (feed.declaration.query ?? [])
          .filter((param) => param.required)
          .map((param) => [param.name, (param.schema.examples as string[])[0]])
      )
      const response = await client.get(paidFeedPath({ id: feed.id })).qs(query)
      assert.equal(response.status(), 402, `${feed.id}: ${response.text()}`)
      const bazaar = bazaarOf(response.body(), assert)
      const info = bazaar.info as any
      assert.equal(info.input.method, 'GET', feed.id)
      assert.deepEqual(info.input.queryParams, { ...query, ...defaults(feed.declaration.query) })
      assert.deepEqual(info.output.example.data, feed.declaration.example, feed.id)
      assert.equal(info.output.example.price, Number(feed.priceMicrostx), feed.id)
      const declared = (bazaar.schema.properties.input.properties as any).queryParams
      assert.deepEqual(
        Object.keys(declared.properties),
        (feed.declaration.query ?? []).map((param) => param.name),
        feed.id
      )
    }
  })

  test("a provider feed's carries what it forwards and its declared output, or no output", async ({
    client,
    assert,
  }) => {
    const { provider } = await providerWithDeclaredFeed(client)

    const declared = await client
      .get(paidFeedPath({ handle: provider.handle, slug: 'eth-price' }))
      .qs({ symbol: 'ETH' })
    declared.assertStatus(402)
    const bazaar = bazaarOf(declared.body(), assert) as any
    assert.deepEqual(bazaar.info.input.queryParams, { symbol: 'ETH' })
    assert.deepEqual(bazaar.info.output.example.data, PRICES_EXAMPLE)
    assert.equal(bazaar.info.output.example.price, 7_000)
    assert.deepEqual(bazaar.schema.properties.input.properties.queryParams.properties, {
      symbol: { type: 'string', description: "Passed on to the provider's API" },
    })
    assert.deepEqual(bazaar.schema.properties.output.properties.example.required, [
      'data',
      'price',
      'price_stx',
      'data_source',
      'last_updated',
    ])
    assert.notProperty(bazaar, 'routeTemplate', 'each feed is its own resource')

    const undeclared = await client.get(
      paidFeedPath({ handle: provider.handle, slug: 'btc-price' })
    )
    undeclared.assertStatus(402)
    const plain = bazaarOf(undeclared.body(), assert) as any
    assert.equal(plain.info.input.method, 'GET')
    assert.notProperty(plain.info, 'output')
  })
})

function defaults(
  query: { name: string; required: boolean; schema: Record<string, unknown> }[] = []
) {
  return Object.fromEntries(
    query
      .filter((param) => !param.required && param.schema.default !== undefined)
      .map((param) => [param.name, param.schema.default])
  )
}

test.group('The payment-required header', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('stays small whatever a feed declares: the body alone carries the Bazaar extension', async ({
    client,
    assert,
  }) => {
    const { owner, provider } = await providerWithDeclaredFeed(client)
    // About 24 KB of declared schema, under the 32 KB a declaration may take.
    const fields = Object.fromEntries(
      Array.from({ length: 300 }, (_, index) => [
        `field_${index}`,
        { type: 'string', description: 'x'.repeat(60) },
      ])
    )
    const example = Object.fromEntries(Object.keys(fields).map((name) => [name, 'value']))
    const edited = await client
      .patch(`/providers/id/${provider.id}/feeds/eth-price`)
      .bearerToken(owner.token)
      .json({ output_schema: { type: 'object', properties: fields }, output_example: example })
    edited.assertStatus(200)

    const quote = await client.get(paidFeedPath({ handle: provider.handle, slug: 'eth-price' }))

    quote.assertStatus(402)
    const header = quote.header('payment-required') ?? ''
    assert.isBelow(header.length, 4_096)
    const { extensions, ...terms } = quote.body()
    const carried = decodeHeader<{ extensions: Record<string, unknown> }>(header)
    assert.deepEqual(carried, {
      ...terms,
      extensions: {
        'payment-identifier': extensions['payment-identifier'],
        'credit': { info: extensions.credit.info },
      },
    })
    assert.deepEqual(extensions.bazaar.info.output.example.data, example)
  })
})
