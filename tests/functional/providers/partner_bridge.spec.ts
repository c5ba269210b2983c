import { test } from '@japa/runner'
import type { ApiClient, ApiResponse } from '@japa/api-client'
import type { Assert } from '@japa/assert'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { sources as driverFactories } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { OutboundConfig } from '#outbound/define_config'
import { OutboundClient } from '#outbound/outbound_client'
import { verifyTollboothRequest } from '#partner_verifier'
import { useManualClock } from '#tests/support/clock'
import { SENDER, transfer } from '#tests/support/devnet'
import { swapOutboundClient } from '#tests/support/outbound'
import { decodeHeader, paymentHeader, useBuyer, usePaidCallStack } from '#tests/support/paid_calls'
import {
  type PartnerBehaviour,
  startPartnerServer,
  type PartnerServer,
} from '#tests/support/partner_server'
import { expectStatus, newOwner, registerProvider } from '#tests/support/providers'
import { outboundClient } from '#tests/support/outbound'
import { Clock } from '#core/clock'

const FEED = '/feeds/p/acme-data/btc-price'
/** The partner's time-out: a hanging partner is given up on when the test moves a manual clock past it. */
const PARTNER_TIMEOUT_MS = 5_000
const BROKEN_PARTNERS: Record<string, PartnerBehaviour> = {
  'answers 500': 'error500',
  'answers HTML': 'html',
  'answers 50 MB': 'huge',
}

test.group('Partner Bridge', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  const buyer = useBuyer(stack)
  let partner: PartnerServer

  group.each.setup(async () => {
    partner = await startPartnerServer({ routes: ['/v1/prices'] })
    sources.fake('partner_bridge', partnerBridge())
    return async () => {
      await sources.restore('partner_bridge')
      await partner.close()
    }
  })

  /** An owner, its Partner Bridge provider on the local partner, and the partner holding the secret. */
  async function registered(client: ApiClient, endpoint = partner.url) {
    const owner = await newOwner(client)
    const body = await registerProvider(client, owner.token, {
      partner_endpoint: endpoint,
      feed: {
        slug: 'btc-price',
        display_name: 'BTC price',
        price_stx: '0.005',
        source_path: '/v1/prices',
        forward_query: ['symbol'],
      },
    })
    partner.secret = body.hmac_secret!
    return { owner, providerId: body.provider.id }
  }

  const pay = (client: ApiClient, path = FEED) => buyer.pay(client, path)

  /** The Partner Bridge driver with the partner time-out of these tests. */
  function partnerBridge() {
    return driverFactories.partnerBridge({ timeoutMs: PARTNER_TIMEOUT_MS, maxBytes: 1_048_576 })
  }

  /**
   * What `call` answers when the partner holds it unanswered: the driver and
   * its outbound client run on a manual clock (at the partner's time, which
   * checks the signed timestamp), moved past the time-out once the partner
   * holds the call.
   */
  async function pastPartnerTimeOut<T>(call: () => Promise<T>): Promise<T> {
    const manual = await useManualClock()
    manual.clock.advance(Date.now() - manual.clock.now())
    const outbound = await app.container.make(OutboundConfig)
    const restoreOutbound = swapOutboundClient(
      new OutboundClient({ ...outbound, clock: manual.clock })
    )
    sources.fake('partner_bridge', partnerBridge())
    try {
      const held = partner.nextHeldCall()
      const answer = call()
      await held
      manual.clock.advance(PARTNER_TIMEOUT_MS)
      return await answer
    } finally {
      await sources.restore('partner_bridge')
      await restoreOutbound()
      manual.restore()
    }
  }

  /** A paid call the partner did not serve: refused, the payment released, the feed's uptime counting it. */
  async function assertCostsNothing(
    client: ApiClient,
    assert: Assert,
    providerId: string,
    response: ApiResponse
  ) {
    response.assertStatus(503)
    assert.equal(response.body().error.code, 'source_unavailable')
    assert.equal(await providerBalance(providerId), 0n)
    const payments = await db.from('payments').select('status')
    assert.deepEqual(payments, [{ status: 'released' }])
    const profile = await client.get('/providers/acme-data')
    assert.equal(profile.body().feeds[0].stats.uptime_percent, 0)
  }

  async function providerBalance(providerId: string) {
    const ledger = await app.container.make(Ledger)
    return -(await ledger.balanceOf(accounts.providerPending(providerId)))
  }

  test('a paid call reaches the partner with a valid signature and credits 97 %', async ({
    client,
    assert,
  }) => {
    const { owner, providerId } = await registered(client)

    const { response, tx } = await pay(client, `${FEED}?symbol=BTC&ignored=1`)

    response.assertStatus(200)
    assert.deepEqual(response.body().data, {
      path: '/v1/prices',
      query: { symbol: 'BTC' },
      price_usd: 97_000.5,
    })
    assert.containsSubset(response.body(), { price: 5000, price_stx: '0.005' })
    assert.match(response.body().data_source, /acme-data via Partner Bridge/)
    assert.isNumber(response.body().last_updated)
    assert.containsSubset(decodeHeader(response.header('payment-response')), {
      success: true,
      transaction: `0x${tx.txid()}`,
    })

    assert.lengthOf(partner.calls, 1)
    const call = partner.calls[0]
    assert.isTrue(call.verification.ok)
    assert.equal(call.path, '/v1/prices?symbol=BTC')
    assert.equal(call.headers['x-tollbooth-provider'], 'acme-data')

    assert.equal(await providerBalance(providerId), 4_850n)
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformFees), -150n)
    const view = await client.get(`/providers/id/${providerId}`).bearerToken(owner.token)
    assert.containsSubset(view.body().provider, { pending_revenue: 4850, lifetime_earned: 4850 })
    const activity = await client.get('/activity')
    assert.equal(activity.body().activity[0].feed, 'acme-data/btc-price')
    const stats = await client.get('/stats')
    assert.containsSubset(stats.body().feed_breakdown, [
      { feed_id: 'acme-data/btc-price', queries: 1, error_rate: 0 },
    ])
  })

  test("the partner's verifier refuses a wrong secret, a stale timestamp and a replayed id", async ({
    client,
    assert,
  }) => {
    await registered(client)
    await expectStatus(
      pay(client).then(({ response }) => response),
      200
    )
    const sent = partner.calls[0]
    const request = { method: 'GET', url: sent.path, headers: sent.headers }
    const timestamp = Number(sent.headers['x-tollbooth-timestamp'])

    assert.containsSubset(
      await verifyTollboothRequest({ ...request, secret: `tbs_${'A'.repeat(43)}` }),
      { ok: false, reason: 'bad_signature' }
    )
    assert.containsSubset(
      await verifyTollboothRequest({
        ...request,
        secret: partner.secret!,
        now: (timestamp + 301) * 1000,
      }),
      { ok: false, reason: 'stale_timestamp' }
    )
    // The same signed request sent again to the partner: its replay store refuses it.
    const replay = await fetch(`${partner.url}${sent.path}`, {
      headers: Object.fromEntries(
        Object.entries(sent.headers).filter(([name]) => name.startsWith('x-tollbooth-'))
      ) as Record<string, string>,
    })
    assert.equal(replay.status, 401)
    assert.deepEqual(await replay.json(), { error: 'replayed' })
  })

  test('rotation cuts the old secret off at once; the buyer is not charged meanwhile', async ({
    client,
    assert,
  }) => {
    const { owner, providerId } = await registered(client)
    const rotated = await client
      .post(`/providers/id/${providerId}/hmac/rotate`)
      .bearerToken(owner.token)
    rotated.assertStatus(200)
    const newSecret = rotated.body().hmac_secret
    assert.match(newSecret, /^tbs_/)
    assert.notEqual(newSecret, partner.secret)

    // The partner still holds the old secret: refused, nothing charged, the payment reusable.
    const quote = await client.get(FEED)
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n, nonce: 0n })
    const header = paymentHeader(quote.body(), tx.serialize())
    const refused = await client.get(FEED).header('payment-signature', header)
    refused.assertStatus(503)
    assert.equal(refused.body().error.code, 'source_unavailable')
    assert.containsSubset(partner.calls[0].verification, { ok: false, reason: 'bad_signature' })
    assert.equal(await providerBalance(providerId), 0n)
    assert.equal(stack.devnet.nonceOf(SENDER.address), 0n, 'nothing was broadcast')

    partner.secret = newSecret
    const served = await client.get(FEED).header('payment-signature', header)
    served.assertStatus(200)
    assert.equal(await providerBalance(providerId), 4_850n)

    const handshake = await client
      .post(`/providers/id/${providerId}/hmac/test`)
      .bearerToken(owner.token)
    assert.equal(handshake.body().result, 'ok')
  })

  test('the handshake test says which part is wrong', async ({ client, assert }) => {
    const { owner, providerId } = await registered(client)
    const probe = async () => {
      const response = await client
        .post(`/providers/id/${providerId}/hmac/test`)
        .bearerToken(owner.token)
      response.assertStatus(200)
      return response.body()
    }

    assert.containsSubset(await probe(), {
      result: 'ok',
      probed_path: '/v1/prices',
      upstream_status: 200,
    })

    const heldSecret = partner.secret
    partner.secret = `tbs_${'B'.repeat(43)}`
    assert.containsSubset(await probe(), { result: 'secret_mismatch', upstream_status: 401 })
    partner.secret = heldSecret

    partner.behaviour = 'html'
    assert.containsSubset(await probe(), { result: 'bad_json', upstream_status: 200 })
    partner.behaviour = 'hang'
    assert.containsSubset(await pastPartnerTimeOut(probe), {
      result: 'timeout',
      upstream_status: null,
    })
    partner.behaviour = 'json'

    await client
      .patch(`/providers/id/${providerId}/feeds/btc-price`)
      .bearerToken(owner.token)
      .json({ source_path: '/api/v1/prices' })
    assert.containsSubset(await probe(), {
      result: 'path_mismatch',
      probed_path: '/api/v1/prices',
      upstream_status: 404,
    })

    await partner.close()
    assert.containsSubset(await probe(), { result: 'unreachable' })
  })

  test('a partner that {$self} costs the buyer nothing and counts against the feed')
    .with(Object.keys(BROKEN_PARTNERS))
    .run(async ({ client, assert }, failure) => {
      const { providerId } = await registered(client)
      partner.behaviour = BROKEN_PARTNERS[failure]

      const { response } = await pay(client)

      await assertCostsNothing(client, assert, providerId, response)
    })

  test('a partner that hangs costs the buyer nothing once its time-out passes by the clock', async ({
    client,
    assert,
  }) => {
    const { providerId } = await registered(client)
    partner.behaviour = 'hang'

    const { response } = await pastPartnerTimeOut(() => pay(client))

    await assertCostsNothing(client, assert, providerId, response)
  })

  test('with production address rules a redirect to a private address is not followed', async ({
    client,
    assert,
  }) => {
    const { providerId } = await registered(
      client,
      `http://partner.test:${new URL(partner.url).port}`
    )
    const internal = await startPartnerServer({ routes: ['/admin'], host: '127.0.0.2' })
    partner.behaviour = 'redirect'
    partner.redirectTo = `${internal.url}/admin`
    // Production address rules; partner.test (127.0.0.1) stands for a public host and plain
    // http stays allowed because the local partner has no certificate.
    const production = outboundClient({
      allowPrivateTargets: true,
      httpsOnly: false,
      resolve: async (host) =>
        host === 'partner.test' ? [{ address: '127.0.0.1', family: 4 }] : [],
      isAllowedAddress: (address) => address === '127.0.0.1',
      timeoutMs: PARTNER_TIMEOUT_MS,
      clock: new Clock(),
    })
    app.container.swap(OutboundClient, () => production)
    sources.fake('partner_bridge', partnerBridge())
    try {
      const { response } = await pay(client)
      response.assertStatus(503)
      assert.equal(response.body().error.code, 'source_unavailable')
      assert.lengthOf(partner.calls, 1)
      assert.isTrue(partner.calls[0].verification.ok)
      assert.lengthOf(internal.calls, 0, 'the redirect to 127.0.0.2 was not followed')
      assert.equal(await providerBalance(providerId), 0n)
    } finally {
      app.container.restore(OutboundClient)
      await internal.close()
    }
  })

  test('switching modes keeps the provider, its feeds and its revenue', async ({
    client,
    assert,
  }) => {
    const { owner, providerId } = await registered(client)
    await expectStatus(
      pay(client).then(({ response }) => response),
      200
    )
    const toMirror = await client
      .post(`/providers/id/${providerId}/mode`)
      .bearerToken(owner.token)
      .json({
        integration_mode: 'hosted_mirror',
        feeds: [
          {
            slug: 'btc-price',
            source: { type: 'objectstore_url', url: `${partner.url}/dump.json` },
          },
        ],
      })
    toMirror.assertStatus(200)
    assert.containsSubset(toMirror.body().provider, {
      id: providerId,
      handle: 'acme-data',
      integration_mode: 'hosted_mirror',
      partner_endpoint: null,
      hmac_secret_issued_at: null,
      pending_revenue: 4850,
      lifetime_earned: 4850,
    })
    assert.notProperty(toMirror.body(), 'hmac_secret')
    assert.containsSubset(toMirror.body().provider.feeds[0], {
      slug: 'btc-price',
      source_type: 'objectstore_url',
      price_microstx: 5000,
    })
    const revoked = await client
      .post(`/providers/id/${providerId}/hmac/test`)
      .bearerToken(owner.token)
    revoked.assertStatus(409)
    assert.equal(revoked.body().error.code, 'not_partner_bridge')

    const missingFeed = await client
      .post(`/providers/id/${providerId}/mode`)
      .bearerToken(owner.token)
      .json({ integration_mode: 'partner_bridge', partner_endpoint: partner.url, feeds: [] })
    missingFeed.assertStatus(422)

    const back = await client
      .post(`/providers/id/${providerId}/mode`)
      .bearerToken(owner.token)
      .json({
        integration_mode: 'partner_bridge',
        partner_endpoint: partner.url,
        feeds: [{ slug: 'btc-price', source_path: '/v1/prices' }],
      })
    back.assertStatus(200)
    assert.match(back.body().hmac_secret, /^tbs_/)
    assert.notEqual(back.body().hmac_secret, partner.secret)
    assert.equal(back.body().provider.pending_revenue, 4850)

    partner.secret = back.body().hmac_secret
    await expectStatus(
      pay(client).then(({ response }) => response),
      200
    )
    assert.equal(await providerBalance(providerId), 9_700n)
    const history = await db.from('query_log').count('* as calls').firstOrFail()
    assert.equal(Number(history.calls), 2)
  })
})
