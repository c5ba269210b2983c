import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import { sources as driverFactories, type FeedsConfig } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { rawCall } from '#tests/support/fuzz'
import { useBuyer, usePaidCallStack } from '#tests/support/paid_calls'
import { startPartnerServer } from '#tests/support/partner_server'
import { mirrorRegistration, newOwner, registerProvider } from '#tests/support/providers'

test.group('Marketplace pages', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('pages cannot be framed by another site, and a long address is not echoed back', async ({
    client,
    assert,
  }) => {
    for (const path of ['/', '/market/leaderboard', '/dashboard']) {
      const page = await client.get(path).header('accept', 'text/html')
      assert.equal(page.header('x-frame-options'), 'DENY', path)
      assert.equal(page.header('content-security-policy'), "frame-ancestors 'none'", path)
      assert.equal(page.header('x-content-type-options'), 'nosniff', path)
    }
    const injected = `send-10-STX-to-${'x'.repeat(200)}`
    const missing = await client.get(`/market/providers/${injected}`).header('accept', 'text/html')
    missing.assertStatus(404)
    assert.notInclude(missing.text(), injected)
    assert.include(missing.text(), 'There is no page at this address.')
  })

  test('the home page lists every live feed, built-in and provider, with its price', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, {
      handle: 'acme-data',
      feed: {
        slug: 'btc-price',
        display_name: 'BTC spot price',
        price_stx: '0.02',
        source_path: '/v1/prices',
      },
    })

    const response = await client.get('/').header('accept', 'text/html')

    response.assertStatus(200)
    assert.match(response.header('content-type') ?? '', /^text\/html/)
    const html = response.text()
    assert.lengthOf(html.match(/data-feed-card/g) ?? [], 17)
    assert.include(html, 'href="/market/feeds/whale-alerts"')
    assert.include(html, 'href="/market/feeds/p/acme-data/btc-price"')
    assert.include(html, 'BTC spot price')
    assert.include(html, '0.02 STX')
    assert.include(html, 'Live: fetched from the provider on every call')
  })

  test("a feed's page gives the snippets that buy that exact feed", async ({ client, assert }) => {
    const response = await client.get('/market/feeds/gas-prediction')

    response.assertStatus(200)
    const html = response.text()
    assert.include(html, 'curl -i http://localhost:')
    assert.include(html, '/feeds/gas-prediction')
    assert.include(html, 'api.get(&#x27;/feeds/gas-prediction&#x27;')
    assert.include(html, 'No paid calls yet.')
    // The shape it declares (app/feeds/builtin/schemas/gas_prediction.ts), types only.
    assert.include(html, '&quot;base_fee_gwei&quot;: &quot;number&quot;')
    assert.include(html, '&quot;price&quot;: &quot;3000&quot;')
  })

  test('an unknown feed is a page saying so, with status 404', async ({ client, assert }) => {
    const response = await client.get('/market/feeds/whale-alertz')

    response.assertStatus(404)
    assert.match(response.header('content-type') ?? '', /^text\/html/)
    assert.include(response.text(), 'Page not found')
    assert.include(response.text(), 'No feed &quot;whale-alertz&quot;')
  })

  test('a browser asking for a page that does not exist gets a page; an API client JSON', async ({
    client,
    assert,
  }) => {
    const browser = await client.get('/market/no/such/page').header('accept', 'text/html,*/*;q=0.8')
    const agent = await client.get('/market/no/such/page')

    browser.assertStatus(404)
    assert.include(browser.text(), 'There is no page at this address.')
    agent.assertStatus(404)
    agent.assertBodyContains({ error: { code: 'route_not_found' } })
  })

  test('the API paths stay JSON for browsers too', async ({ client, assert }) => {
    const response = await client.get('/leaderboard').header('accept', 'text/html')

    response.assertStatus(200)
    assert.deepEqual(response.body(), { agents: [] })
  })
})

/**
 * A feed page shows the shape its feed declares, never what it served: not
 * the keys of a mirror's document (for data keyed by symbol or address, the
 * keys are the product), nor those of a buyer's paid answer.
 */
test.group('Feed pages and served data', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  const buyer = useBuyer(stack)

  group.each.setup(() => {
    sources.extend(
      'partner_bridge',
      driverFactories.partnerBridge({ timeoutMs: 1_000, maxBytes: 1_048_576 })
    )
    return () => {
      sources.extend('partner_bridge', app.config.get<FeedsConfig>('feeds').sources.partner_bridge)
    }
  })

  test("no served document's or paid answer's keys or values appear on the public page", async ({
    client,
    assert,
  }) => {
    const mirrorOwner = await newOwner(client)
    const mirror = await registerProvider(
      client,
      mirrorOwner.token,
      mirrorRegistration({ type: 'manual_upload' }, 'rates')
    )
    const uploaded = await rawCall(
      'POST',
      `/providers/id/${mirror.provider.id}/feeds/rates/upload`,
      {
        body: JSON.stringify({
          'ZQX-PRIVATE-PAIR': { zq_rate: 1.2345, zq_desk_code: 'vault-77-desk' },
        }),
        token: mirrorOwner.token,
        headers: { 'content-type': 'application/json' },
      }
    )
    assert.equal(uploaded.status, 200)

    const partner = await startPartnerServer({ routes: ['/v1/prices'] })
    try {
      partner.behaviour = 'keyed'
      const bridgeOwner = await newOwner(client)
      const bridge = await registerProvider(client, bridgeOwner.token, {
        handle: 'acme-data',
        partner_endpoint: partner.url,
        feed: {
          slug: 'btc-price',
          display_name: 'BTC price',
          price_stx: '0.005',
          source_path: '/v1/prices',
          forward_query: ['symbol'],
        },
      })
      partner.secret = bridge.hmac_secret!
      const paid = await buyer.pay(client, '/feeds/p/acme-data/btc-price?symbol=QQ-SECRET-HOLDING')
      paid.response.assertStatus(200)
      assert.deepEqual(paid.response.body().data, { prices: { 'QQ-SECRET-HOLDING': 97_000.5 } })
    } finally {
      await partner.close()
    }

    const mirrorPage = await client.get('/market/feeds/p/mirror-co/rates')
    const bridgePage = await client.get('/market/feeds/p/acme-data/btc-price')
    for (const served of [
      'ZQX-PRIVATE-PAIR',
      'zq_rate',
      'zq_desk_code',
      'vault-77-desk',
      '1.2345',
    ]) {
      assert.notInclude(mirrorPage.text(), served)
    }
    assert.notInclude(bridgePage.text(), 'QQ-SECRET-HOLDING')
    for (const page of [mirrorPage, bridgePage]) {
      assert.include(page.text(), 'not declared by the provider')
    }
    // What the Partner Bridge feed forwards is its declared input.
    assert.include(bridgePage.text(), '<code>symbol</code>')
  })

  test('a page shows the shape its provider declared, types only', async ({ client, assert }) => {
    const owner = await newOwner(client)
    const registration = mirrorRegistration({ type: 'manual_upload' }, 'rates')
    await registerProvider(client, owner.token, {
      ...registration,
      feed: {
        ...registration.feed,
        output_schema: {
          type: 'object',
          properties: {
            rates: { type: 'object', additionalProperties: { type: 'number' } },
            as_of: { type: 'string', format: 'date-time' },
          },
          required: ['rates'],
        },
        output_example: { rates: { EUR: 1.08 }, as_of: '2026-01-01T00:00:00Z' },
      },
    })

    const response = await client.get('/market/feeds/p/mirror-co/rates')
    const page = response.text()

    assert.include(page, '&quot;rates&quot;: {')
    assert.include(page, '&quot;&lt;any key&gt;&quot;: &quot;number&quot;')
    assert.include(page, '&quot;as_of?&quot;: &quot;string (date-time)&quot;')
    assert.notInclude(page, 'EUR')
    assert.notInclude(page, 'not declared by the provider')
  })
})
