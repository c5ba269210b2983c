import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { expectStatus, newOwner, registerProvider } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

test.group('Provider feed management', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('the owner edits, pauses, resumes and deletes a feed', async ({ client, assert }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const base = `/providers/id/${provider.id}/feeds/btc-price`

    const edited = await client
      .patch(base)
      .bearerToken(owner.token)
      .json({ price_stx: '0.02', description: 'Now with depth', source_path: '/v2/prices' })
    edited.assertStatus(200)
    assert.containsSubset(edited.body().feed, {
      price_microstx: 20_000,
      description: 'Now with depth',
      source_path: '/v2/prices',
    })
    const quote = await client.get('/feeds/p/acme-data/btc-price')
    assert.equal(quote.body().accepts[0].amount, '20000')

    const paused = await client
      .patch(`${base}/state`)
      .bearerToken(owner.token)
      .json({ active: false })
    paused.assertStatus(200)
    assert.equal(paused.body().feed.status, 'paused')
    const whilePaused = await client.get('/feeds/p/acme-data/btc-price')
    whilePaused.assertStatus(503)
    assert.equal(whilePaused.body().error.code, 'feed_unavailable')

    const resumed = await client
      .patch(`${base}/state`)
      .bearerToken(owner.token)
      .json({ active: true })
    assert.equal(resumed.body().feed.status, 'active')
    await expectStatus(client.get('/feeds/p/acme-data/btc-price'), 402)

    const removed = await client.delete(base).bearerToken(owner.token)
    removed.assertStatus(204)
    const gone = await client.get('/feeds/p/acme-data/btc-price')
    gone.assertStatus(404)
    assert.equal(gone.body().error.code, 'feed_not_found')
    const again = await client.delete(base).bearerToken(owner.token)
    again.assertStatus(404)

    // The row stays for history; the slug is free again.
    const rows = await db.from('feeds').where('slug', 'btc-price').whereNotNull('deleted_at')
    assert.lengthOf(rows, 1)
    const recreated = await client
      .post(`/providers/id/${provider.id}/feeds`)
      .bearerToken(owner.token)
      .json({
        slug: 'btc-price',
        display_name: 'BTC',
        price_stx: '0.005',
        source_path: '/v1/prices',
      })
    recreated.assertStatus(201)
  })

  test('slugs are unique per provider, not across providers', async ({ client, assert }) => {
    const first = await newOwner(client)
    const second = await newOwner(client)
    const { provider } = await registerProvider(client, first.token)
    await registerProvider(client, second.token, { handle: 'other-data' })

    const duplicate = await client
      .post(`/providers/id/${provider.id}/feeds`)
      .bearerToken(first.token)
      .json({ slug: 'btc-price', display_name: 'BTC', price_stx: '0.005', source_path: '/x' })
    duplicate.assertStatus(409)
    assert.equal(duplicate.body().error.code, 'slug_taken')
    await expectStatus(client.get('/feeds/p/other-data/btc-price'), 402)
  })

  test('invalid feed input is refused with field errors and changes nothing', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const base = `/providers/id/${provider.id}/feeds`
    for (const [body, field] of [
      [{ slug: 'Bad Slug', display_name: 'X', price_stx: '0.005', source_path: '/x' }, 'slug'],
      [{ slug: 'ok', display_name: 'X', price_stx: '0.005' }, 'source_path'],
      [
        { slug: 'ok', display_name: 'X', price_stx: '0.005', source_path: '/a/../b' },
        'source_path',
      ],
      [{ slug: 'ok', display_name: '', price_stx: '0.005', source_path: '/x' }, 'display_name'],
    ] as const) {
      const response = await client.post(base).bearerToken(owner.token).json(body)
      response.assertStatus(422)
      assert.equal(response.body().error.fields[0].field, field)
    }
    const badPatch = await client
      .patch(`${base}/btc-price`)
      .bearerToken(owner.token)
      .json({ price_stx: '11' })
    badPatch.assertStatus(422)
    assert.equal(badPatch.body().error.code, 'price_out_of_range')
    const view = await client.get(`/providers/id/${provider.id}`).bearerToken(owner.token)
    assert.lengthOf(view.body().provider.feeds, 1)
    assert.equal(view.body().provider.feeds[0].price_microstx, 5000)
  })

  test('an edit naming no field it can change is 422 nothing_to_update, listing them', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const feed = `/providers/id/${provider.id}/feeds/btc-price`

    const message =
      'No known field to update; allowed: display_name, description, price_stx, source_path, forward_query, source, output_schema, output_example'
    for (const body of [{ price: '0.02', colour: 'red' }, {}]) {
      const response = await client.patch(feed).bearerToken(owner.token).json(body)

      response.assertStatus(422)
      response.assertBody({
        error: {
          code: 'nothing_to_update',
          message,
          fields: [{ field: '', rule: 'nothing_to_update', message }],
          request_id: response.header('x-request-id'),
        },
      })
    }
    const view = await client.get(`/providers/id/${provider.id}`).bearerToken(owner.token)
    assert.equal(view.body().provider.feeds[0].price_microstx, 5000)
  })

  test('another wallet reaches none of the management routes', async ({ client, assert }) => {
    const owner = await newOwner(client)
    const intruder = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const base = `/providers/id/${provider.id}`
    const attempts = [
      client.get(base),
      client.patch(base).json({ display_name: 'Mine now' }),
      client.get(`${base}/analytics`),
      client
        .post(`${base}/feeds`)
        .json({ slug: 'x', display_name: 'X', price_stx: '0.005', source_path: '/x' }),
      client.patch(`${base}/feeds/btc-price`).json({ price_stx: '0.001' }),
      client.patch(`${base}/feeds/btc-price/state`).json({ active: false }),
      client.delete(`${base}/feeds/btc-price`),
      client.post(`${base}/mode`).json({ integration_mode: 'hosted_mirror', feeds: [] }),
      client.post(`${base}/hmac/rotate`),
      client.post(`${base}/hmac/test`),
    ]
    for (const attempt of attempts) {
      const response = await attempt.bearerToken(intruder.token)
      assert.equal(response.status(), 403, response.text())
      assert.equal(response.body().error.code, 'not_owner')
    }
    const mine = await client.get('/me/providers').bearerToken(intruder.token)
    assert.deepEqual(mine.body().providers, [])

    const unknown = await client
      .get('/providers/id/00000000-0000-4000-8000-000000000000')
      .bearerToken(owner.token)
    unknown.assertStatus(404)
    assert.equal(unknown.body().error.code, 'provider_not_found')
    await expectStatus(client.get('/providers/id/not-a-uuid').bearerToken(owner.token), 404)
    await expectStatus(client.get(base), 401)

    const view = await client.get(base).bearerToken(owner.token)
    assert.equal(view.body().provider.feeds[0].price_microstx, 5000)
    assert.equal(view.body().provider.feeds[0].status, 'active')
    const owned = await client.get('/me/providers').bearerToken(owner.token)
    assert.deepEqual(owned.body().providers, [view.body().provider])
  })

  test('the public profile lists live feeds with prices and stats', async ({ client, assert }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    await client
      .post(`/providers/id/${provider.id}/feeds`)
      .bearerToken(owner.token)
      .json({ slug: 'eth-price', display_name: 'ETH', price_stx: '0.01', source_path: '/v1/eth' })
    await client
      .patch(`/providers/id/${provider.id}/feeds/eth-price/state`)
      .bearerToken(owner.token)
      .json({ active: false })

    const profile = await client.get('/providers/acme-data')
    profile.assertStatus(200)
    assert.containsSubset(profile.body(), {
      handle: 'acme-data',
      display_name: 'Acme Data',
      website: 'https://acme.example',
      x_account: '@acme',
    })
    assert.deepEqual(
      profile.body().feeds.map((feed: { slug: string }) => feed.slug),
      ['btc-price']
    )
    assert.containsSubset(profile.body().feeds[0], {
      price_stx: 0.005,
      stats: { total_queries: 0, avg_response_ms: 0, uptime_percent: 100 },
    })
    assert.notInclude(profile.text(), 'partner_endpoint')
    assert.notInclude(profile.text(), '127.0.0.1')

    const list = await client.get('/providers')
    assert.containsSubset(list.body().providers, [{ handle: 'acme-data', live_feeds: 1 }])
    await expectStatus(client.get('/providers/nobody-here'), 404)
  })
})
