import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { sources as driverFactories } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { createFeeds } from '#tests/support/feeds'
import { startLocalSite, useLocalSiteClient } from '#tests/support/local_site'
import { rawCall } from '#tests/support/fuzz'
import { useBuyer, usePaidCallStack } from '#tests/support/paid_calls'
import { startPartnerServer } from '#tests/support/partner_server'
import {
  createProviderRow,
  mirrorRegistration,
  newOwner,
  registerProvider,
} from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

test.group('Marketplace pages', (group) => {
  group.each.setup(() => inGlobalTransaction())

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
    cleanup,
  }) => {
    // A local website without a manifest: the verification page fetches it from 127.0.0.1.
    const site = await startLocalSite((_request, response) => response.writeHead(404).end())
    const outbound = useLocalSiteClient()
    cleanup(async () => {
      await outbound.restore()
      await site.close()
    })
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, {
      handle: 'acme-data',
      website: site.origin,
      feed: { slug: 'btc-price', display_name: 'BTC', price_stx: '0.02', source_path: '/v1/p' },
    })
    const paths = [
      '/',
      '/market/activity',
      '/market/leaderboard',
      '/market/providers',
      '/market/providers/acme-data',
      '/market/providers/acme-data/verification',
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
          .map(([name, ...allowed]: string[]) => [name, allowed.join(' ')])
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

  test("a provider's page labels its custodial address as an identity, never a payment address", async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)

    const page = await client.get('/market/providers/acme-data').header('accept', 'text/html')

    const text = page.text().replace(/\s+/g, ' ')
    assert.notInclude(text, 'Custodial wallet')
    assert.include(
      text,
      `<dt>Identity address</dt> <dd><span class="mono">${provider.custodial_wallet}</span> ` +
        '<span class="small muted">Identifies this provider only. It is not a payment address: ' +
        'never send STX to it.'
    )
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
    assert.include(html, '&quot;price&quot;: 3000,')
    assert.include(html, '&quot;price_stx&quot;: &quot;0.003&quot;,')
  })

  test("a feed's page names the query parameters it takes, each with what it is", async ({
    client,
    assert,
  }) => {
    const page = await client.get('/market/feeds/token-intel')
    const html = page.text()

    assert.include(html, '<dt><code>address</code></dt>')
    assert.include(html, '<dd>required · Contract address of the token</dd>')
    assert.include(html, '<dt><code>chain</code></dt>')
    assert.notInclude(html, '@if')
    assert.notInclude(html, '@end')
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

/** The card of the feed titled `title` on a page's HTML. */
function cardOf(html: string, title: string) {
  const card = html
    .split('<article class="feed-card"')
    .find((part) => part.includes(`">${title}</a></h3>`))
  if (!card) throw new Error(`no card titled ${title}`)
  return card.slice(0, card.indexOf('</article>'))
}

test.group('Marketplace pages, what a card says', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test("a feed with no data yet says so on its card, its page and its provider's, until its first document", async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const mirror = await registerProvider(
      client,
      owner.token,
      mirrorRegistration({ type: 'manual_upload' }, 'rates')
    )

    const { html: home } = await cardsAt(client, '/')
    assert.include(cardOf(home, 'Mirrored'), 'No data yet')
    assert.notInclude(
      cardOf(home, 'Whale Alerts'),
      'No data yet',
      'a built-in feed calls its source'
    )
    const page = await client.get('/market/feeds/p/mirror-co/rates')
    assert.include(page.text(), 'No data yet: not on sale.')
    assert.include(
      page.text(),
      'a call answers HTTP 503 <code>source_unavailable</code> and asks no payment'
    )
    const { html: profilePage } = await cardsAt(client, '/market/providers/mirror-co')
    assert.include(cardOf(profilePage, 'Mirrored'), 'No data yet')
    const profile = await client.get('/providers/mirror-co')
    assert.equal(profile.body().feeds[0].has_data, false)

    const uploaded = await rawCall(
      'POST',
      `/providers/id/${mirror.provider.id}/feeds/rates/upload`,
      {
        body: JSON.stringify({ EUR: 1.08 }),
        token: owner.token,
        headers: { 'content-type': 'application/json' },
      }
    )
    assert.equal(uploaded.status, 200)

    const { html: homeAfter } = await cardsAt(client, '/')
    assert.notInclude(cardOf(homeAfter, 'Mirrored'), 'No data yet')
    const pageAfter = await client.get('/market/feeds/p/mirror-co/rates')
    assert.notInclude(pageAfter.text(), 'No data yet')
    const profileAfter = await client.get('/providers/mirror-co')
    assert.equal(profileAfter.body().feeds[0].has_data, true)
  })

  test('a feed never called shows no figures; counts of one read in the singular', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, {
      handle: 'acme-data',
      feed: {
        slug: 'btc-price',
        display_name: 'BTC price',
        price_stx: '0.02',
        source_path: '/v1/p',
      },
    })
    const whale = await db
      .from('feeds')
      .where('slug', 'whale-alerts')
      .whereNull('provider_id')
      .first()
    await db.table('feed_stats').insert({
      feed_id: whale.id,
      total_queries: 1,
      total_response_ms: 120,
      source_calls: 1,
      source_failures: 0,
    })

    const { html: home } = await cardsAt(client, '/')
    const never = cardOf(home, 'BTC price')
    assert.include(never, 'No calls yet')
    assert.notInclude(never, 'ms avg')
    assert.notInclude(never, 'uptime')
    const once = cardOf(home, 'Whale Alerts')
    assert.include(once, '<strong>1</strong> call</span>')
    assert.include(once, '<strong>120</strong> ms avg')
    assert.include(once, '<strong>100%</strong> uptime')
    assert.include(home, '<strong>1</strong><span>paid call served</span>')
    assert.notMatch(home, /\b1<\/strong> calls\b|\b1 (feeds|calls|agents)\b/)

    const feedPage = await client.get('/market/feeds/p/acme-data/btc-price')
    assert.include(feedPage.text(), '<dt>Paid calls</dt><dd>None yet</dd>')
    assert.include(feedPage.text(), '<dt>Avg response</dt><dd>— (no calls yet)</dd>')
    assert.notInclude(feedPage.text(), '0 ms')
    const { html: profile } = await cardsAt(client, '/market/providers/acme-data')
    assert.include(cardOf(profile, 'BTC price'), 'No calls yet')
    const { html: providers } = await cardsAt(client, '/market/providers')
    assert.include(providers, '1 live feed</span>')
  })
})

/** A provider with 60 live feeds, "Signal 01" … "Signal 60"; the even ones are about order-book depth. */
async function sixtyFeeds() {
  const provider = await createProviderRow('many-feeds')
  await createFeeds(provider.id, 60, (n) => {
    const number = String(n).padStart(2, '0')
    return {
      slug: `signal-${number}`,
      displayName: `Signal ${number}`,
      description: n % 2 === 0 ? 'Order-book depth, every second' : 'Funding rates',
    }
  })
  return provider
}

/** The page at `path`, and the titles of its cards in order. */
async function cardsAt(client: ApiClient, path: string) {
  const response = await client.get(path).header('accept', 'text/html')
  response.assertStatus(200)
  const html = response.text()
  const titles = [...html.matchAll(/<h([23])><a href="[^"]*">([^<]*)<\/a><\/h\1>/g)].map(
    (m) => m[2]
  )
  return { html, titles }
}

/** "Signal 09" … "Signal 32" */
function signals(from: number, to: number) {
  return Array.from(
    { length: to - from + 1 },
    (_, i) => `Signal ${String(from + i).padStart(2, '0')}`
  )
}

test.group('Marketplace pages, a page at a time', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('the home page shows one page of 24 feeds and links to the others', async ({
    client,
    assert,
  }) => {
    await sixtyFeeds()

    const first = await cardsAt(client, '/')
    assert.lengthOf(first.titles, 24)
    // The 16 built-in feeds come first.
    assert.deepEqual(first.titles.slice(16), signals(1, 8))
    assert.include(first.html, 'Showing feeds 1–24 of 76')
    assert.include(first.html, 'href="/?page=2#feeds"')
    assert.include(first.html, 'href="/?page=4#feeds"')
    assert.include(first.html, '<strong>76</strong><span>live feeds</span>')

    const second = await cardsAt(client, '/?page=2')
    assert.deepEqual(second.titles, signals(9, 32))
    assert.include(second.html, 'Showing feeds 25–48 of 76')
    assert.include(second.html, 'href="/#feeds" rel="prev"')

    const last = await cardsAt(client, '/?page=4')
    assert.deepEqual(last.titles, signals(57, 60))
    assert.notInclude(last.html, 'rel="next"')
  })

  test('the server searches and filters, and the page links keep the search and the category', async ({
    client,
    assert,
  }) => {
    await sixtyFeeds()

    const depth = await cardsAt(client, '/?q=book+depth')
    assert.lengthOf(depth.titles, 24)
    assert.deepEqual(depth.titles.slice(0, 2), ['Signal 02', 'Signal 04'])
    assert.include(depth.html, 'Showing feeds 1–24 of 30')
    assert.include(depth.html, 'href="/?q=book+depth&amp;page=2#feeds"')
    assert.include(depth.html, 'value="book depth"')
    assert.include(depth.html, 'href="/?q=book+depth&amp;category=social#feeds"')
    const rest = await cardsAt(client, '/?q=book+depth&page=2')
    assert.deepEqual(rest.titles, [
      'Signal 50',
      'Signal 52',
      'Signal 54',
      'Signal 56',
      'Signal 58',
      'Signal 60',
    ])

    const social = await cardsAt(client, '/?category=social')
    assert.deepEqual(social.titles, ['BTC Sentiment'])
    assert.include(social.html, 'name="category" value="social"')

    const providers = await cardsAt(client, '/?category=provider&page=3')
    assert.deepEqual(providers.titles, signals(49, 60))
    assert.include(providers.html, 'href="/?category=provider&amp;page=2#feeds"')

    // The provider's handle and names are searched too; LIKE's wildcards are plain characters.
    const byHandle = await cardsAt(client, '/?q=many-feeds&category=provider')
    assert.lengthOf(byHandle.titles, 24)
    const none = await cardsAt(client, '/?q=100%25_')
    assert.deepEqual(none.titles, [])
    assert.include(none.html, 'No feed matches your search.')
  })

  test('a bad page, search or category is a 422 page saying why; a page past the end links back', async ({
    client,
    assert,
  }) => {
    await sixtyFeeds()
    for (const [query, words] of [
      ['page=abc', 'The page field must be a number.'],
      ['page=0', 'The page field must be between 1 and 100.'],
      ['page=2.5', 'The page field must be an integer.'],
      [`q=${'x'.repeat(101)}`, 'The search field must not be greater than 100 characters.'],
      ['q=a&q=b', 'The search field must be a string.'],
      [`category=${'c'.repeat(41)}`, 'The category field must not be greater than 40 characters.'],
    ]) {
      const response = await client.get(`/?${query}`).header('accept', 'text/html')
      response.assertStatus(422)
      assert.match(response.header('content-type') ?? '', /^text\/html/)
      assert.include(response.text(), words, query)
    }

    const past = await cardsAt(client, '/?q=depth&page=9')
    assert.deepEqual(past.titles, [])
    assert.include(past.html, 'This page is past the last one')
    assert.include(past.html, 'href="/?q=depth#feeds">back to the first page')
    // Feeds match, this page of them is empty: the count says how many, not "none".
    assert.include(past.html, '30 matching feeds')
    assert.notInclude(past.html, 'No feed matches')
  })

  test("the providers page and a provider's page show 24 at a time", async ({ client, assert }) => {
    await sixtyFeeds()
    for (let n = 1; n <= 25; n++) await createProviderRow(`provider-${String(n).padStart(2, '0')}`)

    const providers = await cardsAt(client, '/market/providers')
    assert.lengthOf(providers.titles, 24)
    assert.equal(providers.titles[0], 'many-feeds')
    assert.include(providers.html, 'href="/market/providers?page=2#providers"')
    const more = await cardsAt(client, '/market/providers?page=2')
    assert.deepEqual(more.titles, ['provider-24', 'provider-25'])

    const profile = await cardsAt(client, '/market/providers/many-feeds')
    assert.deepEqual(profile.titles, signals(1, 24))
    assert.include(profile.html, 'href="/market/providers/many-feeds?page=3#pfeeds"')
    const third = await cardsAt(client, '/market/providers/many-feeds?page=3')
    assert.deepEqual(third.titles, signals(49, 60))

    const refused = await client
      .get('/market/providers/many-feeds?page=-1')
      .header('accept', 'text/html')
    refused.assertStatus(422)
    assert.include(refused.text(), 'The page field must be between 1 and 100.')
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
    sources.fake(
      'partner_bridge',
      driverFactories.partnerBridge({ timeoutMs: 1_000, maxBytes: 1_048_576 })
    )
    return () => sources.restore('partner_bridge')
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
