import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import env from '#start/env'
import { newOwner, registerProvider } from '#tests/support/providers'

const base = () => `http://${env.get('HOST')}:${env.get('PORT')}`

/** A raw request, for bodies an API client would refuse to build. */
async function send(path: string, init: RequestInit & { token?: string }) {
  const response = await fetch(`${base()}${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
  })
  return { status: response.status, body: (await response.json()) as any }
}

/** Malformed input sent to the real endpoints: a 4xx JSON answer with a stable code, every time. */
test.group('Malformed input to the endpoints', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('broken JSON is 400 invalid_json on {$self}')
    .with(['/auth/nonce', '/auth/verify', '/facilitator/verify', '/providers'])
    .run(async ({ assert }, path) => {
      const answer = await send(path, { method: 'POST', body: '{"wallet_address":' })
      assert.equal(answer.status, 400)
      assert.equal(answer.body.error.code, 'invalid_json')
    })

  test('a body that is not an object is 422 validation_failed on {$self}')
    .with(['/auth/nonce', '/auth/verify', '/facilitator/verify', '/facilitator/settle'])
    .run(async ({ assert }, path) => {
      for (const body of ['[]', 'null', '"x"', '42']) {
        const answer = await send(path, { method: 'POST', body })
        assert.equal(answer.status, 422, `${path} ${body}`)
        assert.equal(answer.body.error.code, 'validation_failed')
      }
    })

  test('a body over 1 MB is 413 request_entity_too_large', async ({ assert }) => {
    const answer = await send('/facilitator/verify', {
      method: 'POST',
      body: JSON.stringify({ padding: 'x'.repeat(1_100_000) }),
    })
    assert.equal(answer.status, 413)
    assert.equal(answer.body.error.code, 'request_entity_too_large')
  })

  test('POST /auth/verify without nonce or signature, or with wrong types, is 422', async ({
    client,
    assert,
  }) => {
    const wallet = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5'
    for (const [body, field] of [
      [{ wallet_address: wallet, signature: 'ab'.repeat(65) }, 'nonce'],
      [{ wallet_address: wallet, nonce: 'abc' }, 'signature'],
      [{ wallet_address: wallet, nonce: 123, signature: 'ab'.repeat(65) }, 'nonce'],
      [
        { wallet_address: 'not-an-address', nonce: 'abc', signature: 'ab'.repeat(65) },
        'wallet_address',
      ],
    ] as const) {
      const response = await client.post('/auth/verify').json(body)
      response.assertStatus(422)
      assert.equal(response.body().error.code, 'validation_failed')
      assert.equal(response.body().error.fields[0].field, field)
    }
  })

  test('POST /facilitator/verify with wrong types is 422 naming the field', async ({
    client,
    assert,
  }) => {
    const response = await client.post('/facilitator/verify').json({
      paymentPayload: { payload: { transaction: 'not hex' } },
      paymentRequirements: { amount: 5000, payTo: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5' },
    })
    response.assertStatus(422)
    assert.equal(response.body().error.code, 'validation_failed')
    assert.sameMembers(
      response.body().error.fields.map((field: { field: string }) => field.field),
      ['paymentPayload.payload.transaction', 'paymentRequirements.amount']
    )
  })

  test('a garbage payment-signature on a feed is a 402 naming what is wrong', async ({
    client,
    assert,
  }) => {
    for (const header of [
      '%%%',
      Buffer.from('not json').toString('base64'),
      Buffer.from('[1]').toString('base64'),
    ]) {
      const response = await client.get('/feeds/whale-alerts').header('payment-signature', header)
      response.assertStatus(402)
      assert.equal(response.body().x402Version, 2)
      assert.equal(response.body().error, 'invalid_payload')
      assert.isArray(response.body().accepts)
    }
  })

  test('an unknown provider feed is 404 feed_not_found', async ({ client, assert }) => {
    const response = await client.get('/feeds/p/nobody-here/prices')
    response.assertStatus(404)
    assert.equal(response.body().error.code, 'feed_not_found')
  })

  test('feed state takes a JSON boolean, and unknown feeds are 404', async ({ client, assert }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const state = `/providers/id/${provider.id}/feeds/btc-price/state`
    for (const body of [{ active: 'false' }, { active: 0 }, {}]) {
      const response = await client.patch(state).bearerToken(owner.token).json(body)
      response.assertStatus(422)
      assert.equal(response.body().error.fields[0].field, 'active')
    }
    const unknown = await client
      .patch(`/providers/id/${provider.id}/feeds/nope/state`)
      .bearerToken(owner.token)
      .json({ active: false })
    unknown.assertStatus(404)
    assert.equal(unknown.body().error.code, 'feed_not_found')
  })

  test('mode and secret routes refuse what the provider state does not allow', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const bridge = await registerProvider(client, owner.token, { feed: undefined })
    const mirror = await registerProvider(client, owner.token, {
      handle: 'mirror-data',
      integration_mode: 'hosted_mirror',
      partner_endpoint: undefined,
      feed: undefined,
    })
    const call = (id: string, path: string, body: object = {}) =>
      client.post(`/providers/id/${id}${path}`).bearerToken(owner.token).json(body)

    const same = await call(bridge.provider.id, '/mode', {
      integration_mode: 'partner_bridge',
      partner_endpoint: 'http://127.0.0.1:9',
    })
    same.assertStatus(409)
    assert.equal(same.body().error.code, 'mode_unchanged')

    const noFeeds = await call(bridge.provider.id, '/hmac/test')
    noFeeds.assertStatus(409)
    assert.equal(noFeeds.body().error.code, 'no_feeds')

    const rotate = await call(mirror.provider.id, '/hmac/rotate')
    rotate.assertStatus(409)
    assert.equal(rotate.body().error.code, 'not_partner_bridge')

    const badMode = await call(bridge.provider.id, '/mode', { integration_mode: 'carrier_pigeon' })
    badMode.assertStatus(422)
    assert.equal(badMode.body().error.fields[0].field, 'integration_mode')
  })
})
