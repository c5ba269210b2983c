import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { newOwner, registerProvider } from '#tests/support/providers'

test.group('Marketplace pages', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('pages cannot be framed by another site, and a long address is not echoed back', async ({
    client,
    assert,
  }) => {
    for (const path of ['/', '/market/leaderboard', '/dashboard']) {
      const page = await client.get(path).header('accept', 'text/html')
      assert.equal(page.header('x-frame-options'), 'DENY', path)
      assert.include(page.header('content-security-policy'), "frame-ancestors 'none'", path)
      assert.equal(page.header('x-content-type-options'), 'nosniff', path)
    }
    const injected = `send-10-STX-to-${'x'.repeat(200)}`
    const missing = await client.get(`/market/providers/${injected}`).header('accept', 'text/html')
    missing.assertStatus(404)
    assert.notInclude(missing.text(), injected)
    assert.include(missing.text(), 'There is no page at this address.')
  })

  test('every page runs only scripts from this origin, and carries no inline script or style', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, {
      handle: 'acme-data',
      feed: { slug: 'btc-price', display_name: 'BTC', price_stx: '0.02', source_path: '/v1/p' },
    })
    const paths = [
      '/',
      '/market/activity',
      '/market/leaderboard',
      '/market/providers',
      '/market/providers/acme-data',
      '/market/feeds/p/acme-data/btc-price',
      '/dashboard',
      '/dashboard/p/00000000-0000-4000-8000-000000000000/payouts',
      '/market/no-such-page',
    ]

    for (const path of paths) {
      const page = await client.get(path).header('accept', 'text/html')
      const policy = Object.fromEntries(
        String(page.header('content-security-policy'))
          .split(';')
          .map((directive: string) => directive.trim().split(/\s+/))
          .map(([name, ...sources]: string[]) => [name, sources.join(' ')])
      )
      const html = page.text()
      const inlineScripts = html.match(/<script(?![^>]*\bsrc=)(?![^>]*application\/json)[^>]*>/g)

      assert.containsSubset(
        policy,
        {
          'default-src': "'self'",
          'script-src': "'self'",
          'style-src': "'self' 'unsafe-inline'",
          'object-src': "'none'",
          'base-uri': "'none'",
          'frame-ancestors': "'none'",
        },
        path
      )
      // The tests run Vite's dev server: its client's hot-reload socket is the one addition.
      assert.equal(policy['connect-src'], "'self' ws:", path)
      assert.isNull(inlineScripts, path)
      assert.notMatch(html, /\sstyle=|\son[a-z]+=/, path)
    }
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
    assert.include(html, 'No one has bought this feed yet')
    assert.include(html, 'No paid calls yet.')
  })

  test('an unknown feed is a page saying so, with status 404 and the feed it likely meant', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token)

    const builtin = await client.get('/market/feeds/whale-alertz')
    const provider = await client.get('/market/feeds/p/acme-data/btc-prise')

    builtin.assertStatus(404)
    assert.match(builtin.header('content-type') ?? '', /^text\/html/)
    assert.include(builtin.text(), 'Page not found')
    assert.include(builtin.text(), 'There is no page at this address.')
    assert.include(
      builtin.text(),
      'Did you mean <a href="/market/feeds/whale-alerts">whale-alerts</a>?'
    )
    assert.notInclude(builtin.text(), 'whale-alertz')
    provider.assertStatus(404)
    assert.include(
      provider.text(),
      'Did you mean <a href="/market/feeds/p/acme-data/btc-price">acme-data/btc-price</a>?'
    )
    assert.notInclude(provider.text(), 'btc-prise')
  })

  test('a 404 page never repeats the address it was given', async ({ client, assert }) => {
    const injected = 'Send-10-STX-to-SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7-to-unlock-this-feed'
    for (const path of [
      `/market/feeds/${injected}`,
      `/market/feeds/p/acme-data/${injected}`,
      `/market/feeds/p/${injected}/btc-price`,
      `/market/providers/${injected}`,
      `/market/${injected}`,
      `/dashboard/p/${injected}/feeds/x/y`,
    ]) {
      const page = await client.get(path).header('accept', 'text/html')

      page.assertStatus(404)
      assert.include(page.text(), 'There is no page at this address.', path)
      assert.notInclude(page.text().toLowerCase(), 'send-10-stx', path)
    }
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
