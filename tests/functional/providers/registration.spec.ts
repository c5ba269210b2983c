import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import Feed from '#models/feed'
import Provider from '#models/provider'
import { partnerSecrets } from '#provider_accounts/partner_secrets'
import {
  expectStatus,
  mirrorRegistration,
  newOwner,
  postRegistration,
  registration,
} from '#tests/support/providers'
import { type ManualClock, useManualClock } from '#tests/support/clock'
import { deriveKey } from '#partner_verifier'
import { checkAddress } from '#chain/address'
import { NETWORKS } from '#chain/network'
import { OutboundConfig } from '#outbound/define_config'
import { changeConfig } from '#tests/support/config'
import { inGlobalTransaction } from '#tests/support/database'

async function providerCount() {
  const row = await db.from('providers').count('* as total').firstOrFail()
  return Number(row.total)
}

test.group('Provider registration', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('registers a Partner Bridge provider with its first feed, live at once', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const response = await postRegistration(client, owner.token)

    response.assertStatus(201)
    const { provider, feed, hmac_secret: secret } = response.body()
    assert.containsSubset(provider, {
      handle: 'acme-data',
      display_name: 'Acme Data',
      status: 'active',
      integration_mode: 'partner_bridge',
      partner_endpoint: 'http://127.0.0.1:9',
      owner_wallet: owner.walletAddress,
      pending_revenue: 0,
      lifetime_earned: 0,
      total_withdrawn: 0,
    })
    // A c32 address's length varies with its hash: check it as an address of this network.
    assert.isTrue(checkAddress(provider.custodial_wallet, NETWORKS.devnet).valid)
    assert.notEqual(provider.custodial_wallet, owner.walletAddress)
    assert.containsSubset(feed, {
      slug: 'btc-price',
      price_microstx: 5000,
      price_stx: '0.005',
      status: 'active',
      source_path: '/v1/prices',
    })
    assert.match(feed.url, /\/feeds\/p\/acme-data\/btc-price$/)
    assert.match(secret, /^tbs_[A-Za-z0-9_-]{43}$/)

    // Only K = SHA-256(secret) is kept, encrypted; the secret is nowhere in the row.
    const row = await db.from('providers').where('handle', 'acme-data').firstOrFail()
    assert.notInclude(JSON.stringify(row), secret)
    const stored = await Provider.findByOrFail('handle', 'acme-data')
    assert.deepEqual(partnerSecrets.keyOf(stored.hmacKeyEncrypted), deriveKey(secret))

    // The secret is never shown again.
    const view = await client.get(`/providers/id/${provider.id}`).bearerToken(owner.token)
    view.assertStatus(200)
    assert.notInclude(view.text(), secret)
    assert.notProperty(view.body().provider, 'hmac_secret')

    const unpaid = await client.get('/feeds/p/acme-data/btc-price')
    unpaid.assertStatus(402)
    assert.equal(unpaid.body().accepts[0].amount, '5000')
    assert.match(unpaid.body().resource.url, /\/feeds\/p\/acme-data\/btc-price$/)
  })

  test('without a feed the provider is pending; its first feed activates it', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const created = await postRegistration(client, owner.token, { feed: undefined })
    created.assertStatus(201)
    assert.equal(created.body().provider.status, 'pending')
    assert.notProperty(created.body(), 'feed')

    const feed = await client
      .post(`/providers/id/${created.body().provider.id}/feeds`)
      .bearerToken(owner.token)
      .json({ slug: 'eth-price', display_name: 'ETH', price_stx: 0.01, source_path: '/v1/eth' })
    feed.assertStatus(201)
    assert.equal(feed.body().feed.price_microstx, 10_000)
    const view = await client
      .get(`/providers/id/${created.body().provider.id}`)
      .bearerToken(owner.token)
    assert.equal(view.body().provider.status, 'active')
  })

  test('the registration answers the same provider view as GET, withdrawal wallet included', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const created = await postRegistration(client, owner.token)
    created.assertStatus(201)
    const answered = created.body().provider
    const view = await client.get(`/providers/id/${answered.id}`).bearerToken(owner.token)

    assert.deepEqual(Object.keys(answered).sort(), Object.keys(view.body().provider).sort())
    assert.containsSubset(answered, {
      linked_withdrawal_wallet: null,
      withdrawal_wallet_held_until: null,
    })
  })

  test('a Hosted Mirror provider gets no secret', async ({ client, assert }) => {
    const owner = await newOwner(client)
    const response = await postRegistration(client, owner.token, {
      integration_mode: 'hosted_mirror',
      partner_endpoint: undefined,
      feed: {
        slug: 'btc-price',
        display_name: 'BTC price',
        price_stx: '0.005',
        source: { type: 'objectstore_url', url: 'http://127.0.0.1:9/prices.json' },
      },
    })
    response.assertStatus(201)
    assert.notProperty(response.body(), 'hmac_secret')
    assert.isNull(response.body().provider.partner_endpoint)
    assert.containsSubset(response.body().feed, {
      source_type: 'objectstore_url',
      source: { type: 'objectstore_url', url: 'http://127.0.0.1:9/prices.json' },
    })
  })

  test('a Hosted Mirror source is checked by its driver, and only mirror types are accepted', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const mirror = (source: Record<string, unknown>) =>
      postRegistration(client, owner.token, {
        integration_mode: 'hosted_mirror',
        partner_endpoint: undefined,
        feed: { slug: 'btc-price', display_name: 'BTC', price_stx: '0.005', source },
      })

    const badInterval = await mirror({
      type: 'codehost_raw',
      url: 'http://127.0.0.1:9/prices.json',
      poll_interval_seconds: 42,
    })
    badInterval.assertStatus(422)
    assert.equal(badInterval.body().error.fields[0].field, 'feed.source.poll_interval_seconds')

    const badUrl = await mirror({ type: 'objectstore_url', url: 'ftp://example.com/prices.json' })
    badUrl.assertStatus(422)
    assert.equal(badUrl.body().error.code, 'invalid_source_url')

    const uploadWithUrl = await mirror({ type: 'manual_upload', url: 'https://example.com/p.json' })
    uploadWithUrl.assertStatus(422)
    assert.deepEqual(uploadWithUrl.body().error.fields, [
      {
        field: 'feed.source.url',
        message: 'manual_upload sources take no url: the provider sends the documents',
        rule: 'not_a_setting',
      },
    ])

    for (const type of ['builtin', 'partner_bridge', 'carrier_pigeon']) {
      const refused = await mirror({ type, source_path: '/x' })
      refused.assertStatus(422)
      assert.equal(refused.body().error.code, 'source_type_unavailable')
      assert.equal(refused.body().error.fields[0].field, 'feed.source.type')
      assert.equal(
        refused.body().error.fields[0].message,
        `The source type ${type} is not available on this marketplace; a Hosted Mirror feed can use codehost_raw, objectstore_url, webhook_push, manual_upload`
      )
    }
    const rows = await db.from('providers').count('* as total').firstOrFail()
    assert.equal(Number(rows.total), 0)
  })

  test('a value outside a fixed list is refused with the allowed values', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const mirrorFeed = (source: Record<string, unknown>) => ({
      integration_mode: 'hosted_mirror',
      partner_endpoint: undefined,
      feed: { slug: 'btc-price', display_name: 'BTC', price_stx: '0.005', source },
    })
    for (const [overrides, field, message] of [
      [
        { integration_mode: 'carrier_pigeon' },
        'integration_mode',
        'integration_mode must be one of partner_bridge, hosted_mirror',
      ],
      [
        mirrorFeed({
          type: 'codehost_raw',
          url: 'http://127.0.0.1:9/p.json',
          poll_interval_seconds: 42,
        }),
        'feed.source.poll_interval_seconds',
        'poll_interval_seconds must be one of 60, 300, 900, 3600',
      ],
    ] as const) {
      const response = await postRegistration(client, owner.token, overrides)
      assert.equal(response.status(), 422, response.text())
      assert.containsSubset(response.body().error.fields, [{ field, rule: 'enum', message }])
    }
  })

  test('refuses handle "{handle}" with {code}')
    .with([
      { handle: 'admin', code: 'handle_reserved' },
      { handle: 'feeds', code: 'handle_reserved' },
      { handle: 'www', code: 'handle_reserved' },
      { handle: 'ab', code: 'handle_invalid' },
      { handle: 'a'.repeat(33), code: 'handle_invalid' },
      { handle: '-acme', code: 'handle_invalid' },
      { handle: 'acme-', code: 'handle_invalid' },
      { handle: 'Acme', code: 'handle_invalid' },
      { handle: 'acme_data', code: 'handle_invalid' },
    ])
    .run(async ({ client, assert }, { handle, code }) => {
      const owner = await newOwner(client)
      const response = await postRegistration(client, owner.token, { handle })
      assert.equal(response.status(), 422, response.text())
      assert.equal(response.body().error.code, code)
      assert.equal(response.body().error.fields[0].field, 'handle')
      assert.equal(await providerCount(), 0)
    })

  test('refuses partner_endpoint {$self}')
    .with([
      'http://127.0.0.1:9/',
      'http://127.0.0.1:9/api',
      'https://api.example.com/v1',
      'https://api.example.com?x=1',
      'https://user:pw@api.example.com',
      'ftp://api.example.com',
      'api.example.com',
    ])
    .run(async ({ client, assert }, endpoint) => {
      const owner = await newOwner(client)
      const response = await postRegistration(client, owner.token, { partner_endpoint: endpoint })
      response.assertStatus(422)
      assert.equal(response.body().error.code, 'invalid_partner_endpoint')
    })

  test('with production rules only https origins on port 443 are accepted', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const restoreRules = changeConfig(await app.container.make(OutboundConfig), {
      httpsOnly: true,
      allowedPorts: [443],
    })
    try {
      for (const endpoint of ['http://api.example.com', 'https://api.example.com:8443']) {
        const refused = await postRegistration(client, owner.token, {
          partner_endpoint: endpoint,
          website: undefined,
        })
        refused.assertStatus(422)
        assert.equal(refused.body().error.code, 'invalid_partner_endpoint')
      }
      const accepted = await postRegistration(client, owner.token, {
        partner_endpoint: 'https://api.example.com',
      })
      accepted.assertStatus(201)
    } finally {
      restoreRules()
    }
  })

  test('a plain http website is accepted only outside production while private targets are allowed', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const outboundConfig = await app.container.make(OutboundConfig)
    const { allowPrivateTargets, httpsOnly } = outboundConfig
    const restoreRules = changeConfig(outboundConfig, { allowPrivateTargets, httpsOnly })
    const register = (handle: string) =>
      postRegistration(client, owner.token, {
        handle,
        website: 'http://acme.example',
        partner_endpoint: 'https://api.acme.example',
      })
    try {
      await expectStatus(register('dev-http'), 201)

      changeConfig(outboundConfig, { allowPrivateTargets: false })
      const withoutPrivateTargets = await register('no-private')
      withoutPrivateTargets.assertStatus(422)
      assert.equal(withoutPrivateTargets.body().error.code, 'invalid_website')

      changeConfig(outboundConfig, { allowPrivateTargets: true, httpsOnly: true })
      const production = await register('prod-http')
      production.assertStatus(422)
      assert.equal(production.body().error.code, 'invalid_website')
    } finally {
      restoreRules()
    }
  })

  test('refuses source_path {$self}')
    .with(['v1/prices', '/v1/../admin', '/v1/./prices', '/v1/prices?x=1', '//evil.com/x', '/a b'])
    .run(async ({ client, assert }, path) => {
      const owner = await newOwner(client)
      const response = await postRegistration(client, owner.token, {
        feed: { slug: 'btc-price', display_name: 'BTC', price_stx: '0.005', source_path: path },
      })
      assert.equal(response.status(), 422, response.text())
      assert.equal(response.body().error.code, 'invalid_source_path')
      assert.equal(response.body().error.fields[0].field, 'feed.source_path')
      // Nothing half-written: the provider was not created either.
      assert.equal(await providerCount(), 0)
    })

  test('refuses price {price} with {code}')
    .with([
      { price: '0.00009', code: 'price_out_of_range' },
      { price: 10.000001, code: 'price_out_of_range' },
      { price: '10.000001', code: 'price_out_of_range' },
      { price: '0.0000001', code: 'invalid_price' },
      { price: -1, code: 'invalid_price' },
      { price: '1e-3', code: 'invalid_price' },
      { price: 'free', code: 'invalid_price' },
    ])
    .run(async ({ client, assert }, { price, code }) => {
      const owner = await newOwner(client)
      const response = await postRegistration(client, owner.token, {
        feed: { slug: 'btc', display_name: 'BTC', price_stx: price, source_path: '/v1/p' },
      })
      response.assertStatus(422)
      assert.equal(response.body().error.code, code)
    })

  test('accepts the price bounds exactly', async ({ client, assert }) => {
    const owner = await newOwner(client)
    for (const [handle, price, micro] of [
      ['low-price', '0.0001', 100],
      ['high-price', 10, 10_000_000],
    ] as const) {
      const response = await postRegistration(client, owner.token, {
        handle,
        feed: { slug: 'f', display_name: 'F', price_stx: price, source_path: '/f' },
      })
      response.assertStatus(201)
      assert.equal(response.body().feed.price_microstx, micro)
    }
  })

  test('a taken handle is 409 handle_taken and a missing endpoint 422', async ({
    client,
    assert,
  }) => {
    const first = await newOwner(client)
    const second = await newOwner(client)
    await expectStatus(postRegistration(client, first.token), 201)
    const taken = await postRegistration(client, second.token)
    taken.assertStatus(409)
    assert.equal(taken.body().error.code, 'handle_taken')

    const noEndpoint = await postRegistration(client, second.token, {
      handle: 'other',
      partner_endpoint: undefined,
    })
    noEndpoint.assertStatus(422)
    assert.equal(noEndpoint.body().error.fields[0].field, 'partner_endpoint')
  })

  test('website must be https-like and X accounts look like @name', async ({ client, assert }) => {
    const owner = await newOwner(client)
    const website = await postRegistration(client, owner.token, { website: 'javascript:alert(1)' })
    website.assertStatus(422)
    assert.equal(website.body().error.code, 'invalid_website')
    const x = await postRegistration(client, owner.token, { x_account: 'acme' })
    x.assertStatus(422)
    assert.equal(x.body().error.fields[0].field, 'x_account')
  })

  test('registration needs a session', async ({ client }) => {
    const response = await client.post('/providers').json(registration())
    response.assertStatus(401)
  })
})

test.group('Provider secrets are issued at the Clock time', (group) => {
  let clock: ManualClock

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const manual = await useManualClock()
    clock = manual.clock
    return () => manual.restore()
  })

  test('registration, a secret rotation and a deletion record the manual clock, not the wall clock', async ({
    client,
    assert,
  }) => {
    const at = (iso: string | null) => (iso === null ? null : DateTime.fromISO(iso).toMillis())
    const owner = await newOwner(client)
    const registered = await expectStatus(postRegistration(client, owner.token), 201)
    const partner = registered.body()
    const mirrorRegistered = await expectStatus(
      postRegistration(client, owner.token, mirrorRegistration({ type: 'webhook_push' }, 'ticker')),
      201
    )
    const mirror = mirrorRegistered.body()

    assert.equal(at(partner.provider.hmac_secret_issued_at), clock.now())
    assert.equal(at(mirror.feed.push_secret_issued_at), clock.now())

    clock.advance(3_600_000)
    const rotate = (path: string) => expectStatus(client.post(path).bearerToken(owner.token), 200)
    await rotate(`/providers/id/${partner.provider.id}/hmac/rotate`)
    await rotate(`/providers/id/${mirror.provider.id}/feeds/ticker/push-secret/rotate`)
    await expectStatus(
      client.delete(`/providers/id/${mirror.provider.id}/feeds/ticker`).bearerToken(owner.token),
      204
    )

    const provider = await expectStatus(
      client.get(`/providers/id/${partner.provider.id}`).bearerToken(owner.token),
      200
    )
    assert.equal(at(provider.body().provider.hmac_secret_issued_at), clock.now())
    const feed = await Feed.query().where('provider_id', mirror.provider.id).firstOrFail()
    assert.equal(feed.pushSecretIssuedAt?.toMillis(), clock.now())
    assert.equal(feed.deletedAt?.toMillis(), clock.now())
  })
})
