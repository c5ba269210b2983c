import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { sources as driverFactories } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import {
  FIXED_DOCUMENT_DECLARATION,
  FIXED_DOCUMENT_UPDATED_AT,
  FixedDocumentDriver,
} from '#tests/support/fixed_document_driver'
import { useBuyer, usePaidCallStack } from '#tests/support/paid_calls'
import { newOwner, postRegistration, registerProvider } from '#tests/support/providers'

/**
 * A new source driver is one file and one config line: the driver in
 * tests/support/fixed_document_driver.ts, registered by the one
 * `sources.extend` below, becomes a source type Hosted Mirror providers may
 * choose and sells a feed through the same paywall as every other driver.
 */
test.group('A source driver of your own', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  const buyer = useBuyer(stack)
  let driver: FixedDocumentDriver

  group.each.setup(() => {
    driver = new FixedDocumentDriver()
    sources.extend(
      'test_plugin',
      driverFactories.custom(FIXED_DOCUMENT_DECLARATION, () => driver)
    )
    return () => sources.remove('test_plugin')
  })

  function mirrorFeed(source: Record<string, unknown>) {
    return {
      integration_mode: 'hosted_mirror',
      partner_endpoint: undefined,
      feed: { slug: 'prices', display_name: 'Prices', price_stx: '0.005', source },
    }
  }

  test('a Hosted Mirror provider sells a feed through it, from registration to a paid call', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const registered = await registerProvider(
      client,
      owner.token,
      mirrorFeed({ type: 'test_plugin', edition: 'first' })
    )
    assert.containsSubset(registered.feed, {
      source_type: 'test_plugin',
      source: { type: 'test_plugin', edition: 'first' },
    })

    const { response: response } = await buyer.pay(client, '/feeds/p/acme-data/prices')

    response.assertStatus(200)
    assert.deepEqual(response.body().data, {
      edition: 'first',
      prices: { BTC: 97_000.5, STX: 1.25 },
    })
    assert.containsSubset(response.body(), {
      last_updated: FIXED_DOCUMENT_UPDATED_AT,
      data_source: 'a fixed document (test plugin)',
      price: 5000,
    })
    assert.equal(driver.fetches, 1)
    const page = await client.get('/market/feeds/p/acme-data/prices').header('accept', 'text/html')
    assert.include(page.text(), 'A fixed document, always the same', 'its declared freshness')
    const ledger = await app.container.make(Ledger)
    const earned = await ledger.balanceOf(accounts.providerPending(registered.provider.id))
    assert.equal(-earned, 4_850n)
  })

  test('the driver checks its own settings, and without it the type is unavailable', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)

    const badSettings = await postRegistration(
      client,
      owner.token,
      mirrorFeed({ type: 'test_plugin', edition: '' })
    )
    badSettings.assertStatus(422)
    assert.equal(badSettings.body().error.fields[0].field, 'feed.source.edition')

    await sources.remove('test_plugin')
    const unregistered = await postRegistration(
      client,
      owner.token,
      mirrorFeed({ type: 'test_plugin', edition: 'first' })
    )
    unregistered.assertStatus(422)
    assert.equal(unregistered.body().error.code, 'source_type_unavailable')
    assert.equal(
      unregistered.body().error.fields[0].message,
      'The source type test_plugin is not available on this marketplace; a Hosted Mirror feed can use codehost_raw, objectstore_url, webhook_push, manual_upload'
    )
  })

  test('a mode switch lets each feed pick any of the mirror source types', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const bridge = await registerProvider(client, owner.token, {
      feed: { slug: 'prices', display_name: 'Prices', price_stx: '0.005', source_path: '/v1/p' },
    })
    const base = `/providers/id/${bridge.provider.id}`
    const second = await client
      .post(`${base}/feeds`)
      .bearerToken(owner.token)
      .json({ slug: 'dump', display_name: 'Dump', price_stx: '0.005', source_path: '/v1/dump' })
    second.assertStatus(201)
    const switchTo = (feeds: object[]) =>
      client
        .post(`${base}/mode`)
        .bearerToken(owner.token)
        .json({ integration_mode: 'hosted_mirror', feeds })

    const unknown = await switchTo([
      { slug: 'prices', source: { type: 'test_plugin', edition: 'first' } },
      { slug: 'dump', source: { type: 'carrier_pigeon' } },
    ])
    unknown.assertStatus(422)
    assert.equal(unknown.body().error.code, 'source_type_unavailable')
    assert.equal(unknown.body().error.fields[0].field, 'feeds.1.source.type')

    const switched = await switchTo([
      { slug: 'prices', source: { type: 'test_plugin', edition: 'first' } },
      { slug: 'dump', source: { type: 'webhook_push' } },
    ])
    switched.assertStatus(200)
    assert.deepEqual(Object.keys(switched.body().push_secrets), ['dump'])
    assert.match(switched.body().push_secrets.dump, /^tbp_[\w-]{43}$/)
    assert.sameDeepMembers(
      switched
        .body()
        .provider.feeds.map((feed: { slug: string; source_type: string }) => [
          feed.slug,
          feed.source_type,
        ]),
      [
        ['prices', 'test_plugin'],
        ['dump', 'webhook_push'],
      ]
    )
    const { response: response } = await buyer.pay(client, '/feeds/p/acme-data/prices')
    response.assertStatus(200)
    assert.equal(response.body().data.edition, 'first')
  })
})
