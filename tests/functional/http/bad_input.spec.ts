import { test } from '@japa/runner'
import { connect } from 'node:net'
import env from '#start/env'
import { transfer } from '#tests/support/devnet'
import { decodeHeader, paymentHeader } from '#tests/support/paid_calls'
import { newOwner, registerProvider } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

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
  group.each.setup(() => inGlobalTransaction())

  test('broken JSON is 400 invalid_json on {$self}')
    .with(['/auth/nonce', '/auth/verify', '/facilitator/verify', '/providers'])
    .run(async ({ assert }, path) => {
      const answer = await send(path, { method: 'POST', body: '{"wallet_address":' })
      assert.equal(answer.status, 400)
      assert.equal(answer.body.error.code, 'invalid_json')
    })

  test('a JSON body sent {sentAs} is 415 unsupported_media_type, not missing fields')
    .with([
      { sentAs: 'as a form (curl -d)', contentType: 'application/x-www-form-urlencoded' },
      { sentAs: 'as text (fetch with a string)', contentType: 'text/plain;charset=UTF-8' },
      { sentAs: 'as multipart', contentType: 'multipart/form-data; boundary=x' },
      { sentAs: 'without a Content-Type', contentType: undefined },
    ])
    .run(async ({ assert }, { contentType }) => {
      for (const path of ['/auth/nonce', '/providers', '/facilitator/verify']) {
        const response = await fetch(`${base()}${path}`, {
          method: 'POST',
          headers: contentType ? { 'content-type': contentType } : {},
          body: new TextEncoder().encode(
            '{"wallet_address":"ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5"}'
          ),
        })
        const body = (await response.json()) as { error: { code: string; message: string } }

        assert.equal(response.status, 415, `${path}: ${JSON.stringify(body)}`)
        assert.equal(body.error.code, 'unsupported_media_type')
        assert.include(
          body.error.message,
          contentType ? `sent as ${contentType.split(';')[0]}` : 'sent without a Content-Type'
        )
        assert.include(body.error.message, 'send it as JSON with Content-Type: application/json')
      }
    })

  test('a request without a body needs no Content-Type', async ({ assert }) => {
    const response = await fetch(`${base()}/auth/nonce`, { method: 'POST' })
    const body = (await response.json()) as { error: { code: string; fields: { field: string }[] } }

    assert.equal(response.status, 422)
    assert.equal(body.error.code, 'validation_failed')
    assert.equal(body.error.fields[0].field, 'wallet_address')
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

/** Inputs that once answered 500 with a PostgreSQL or zlib code: each is a 4xx with a stable code. */
test.group('Inputs that must never be a 500', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('a NUL byte in a path segment or a parameter is 400 invalid_characters on {$self}')
    .with([
      '/feeds/%00',
      '/feeds/p/%00/x',
      '/feeds/p/acme/%00',
      '/providers/%00',
      '/providers/%00/manifest',
      '/activity?limit=%00',
    ])
    .run(async ({ client, assert }, path) => {
      const response = await client.get(path)
      response.assertStatus(400)
      assert.equal(response.body().error.code, 'invalid_characters')
    })

  test('a NUL character in a JSON body is 400 invalid_characters, whatever its depth', async ({
    assert,
  }) => {
    const shallow = await send('/auth/nonce', {
      method: 'POST',
      body: JSON.stringify({ wallet_address: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5\u0000' }),
    })
    const deep = await send('/facilitator/verify', {
      method: 'POST',
      body: JSON.stringify({ a: [{ b: { c: ['ok', { 'key\u0000': 1 }] } }] }),
    })
    for (const answer of [shallow, deep]) {
      assert.equal(answer.status, 400)
      assert.equal(answer.body.error.code, 'invalid_characters')
    }
  })

  test('a body that is not what its Content-Encoding says is 400 invalid_body_encoding ({$self})')
    .with(['deflate', 'br', 'gzip'])
    .run(async ({ assert }, encoding) => {
      const response = await fetch(`${base()}/auth/nonce`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: 'this is not compressed',
      })
      assert.equal(response.status, 400)
      const body = (await response.json()) as { error: { code: string } }
      assert.equal(body.error.code, 'invalid_body_encoding')
      assert.isString(response.headers.get('x-request-id'))
    })

  test('an unsupported Content-Encoding is 415 content_encoding_unsupported', async ({
    assert,
  }) => {
    const response = await fetch(`${base()}/auth/nonce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' },
      body: '{}',
    })
    assert.equal(response.status, 415)
    const body = (await response.json()) as { error: { code: string } }
    assert.equal(body.error.code, 'content_encoding_unsupported')
  })

  test('a validly signed transfer of 2^63 µSTX or more is a 402 invalid_amount, not a 500', async ({
    client,
    assert,
  }) => {
    const quote = await client.get('/feeds/whale-alerts')
    const tx = await transfer({ recipient: quote.body().accepts[0].payTo, amount: 2n ** 63n })

    const response = await client
      .get('/feeds/whale-alerts')
      .header('payment-signature', paymentHeader(quote.body(), tx.serialize()))

    response.assertStatus(402)
    assert.equal(response.body().error, 'invalid_amount')
    assert.equal(decodeHeader(response.header('payment-response')).errorReason, 'invalid_amount')
  })
})

/** Raw bytes on a socket: requests Node's own parser refuses before any route sees them. */
async function rawRequest(bytes: string): Promise<{ head: string; body: string }> {
  const socket = connect(Number(env.get('PORT')), env.get('HOST'))
  socket.end(bytes)
  const chunks: Buffer[] = []
  for await (const chunk of socket) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  const split = text.indexOf('\r\n\r\n')
  return { head: text.slice(0, split), body: text.slice(split + 4) }
}

test.group('Requests the HTTP parser refuses', () => {
  const cases: { name: string; bytes: string; status: number; code: string }[] = [
    {
      name: 'headers over 16 KiB',
      bytes: `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
      status: 431,
      code: 'headers_too_large',
    },
    {
      name: 'an unknown method',
      bytes: 'FROB /health HTTP/1.1\r\nHost: x\r\n\r\n',
      status: 501,
      code: 'method_not_implemented',
    },
    {
      name: 'a malformed header line',
      bytes: 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      status: 400,
      code: 'malformed_request',
    },
    {
      name: 'bad chunked encoding',
      bytes:
        'POST /auth/nonce HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      status: 400,
      code: 'malformed_request',
    },
    {
      name: 'Content-Length together with Transfer-Encoding',
      bytes:
        'POST /auth/nonce HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      status: 400,
      code: 'malformed_request',
    },
  ]

  for (const { name, bytes, status, code } of cases) {
    test(`${name} is ${status} ${code} in JSON with a request id`, async ({ assert }) => {
      const { head, body } = await rawRequest(bytes)

      assert.match(head, new RegExp(`^HTTP/1.1 ${status} `))
      assert.match(head, /content-type: application\/json/i)
      const requestId = /x-request-id: ([0-9a-f-]{36})/i.exec(head)?.[1]
      assert.isString(requestId)
      assert.deepEqual(JSON.parse(body).error.code, code)
      assert.equal(JSON.parse(body).error.request_id, requestId)
    })
  }

  test('a URL with percent-escapes that are not UTF-8 is 400 malformed_url in JSON', async ({
    assert,
  }) => {
    const response = await fetch(`${base()}/feeds/%C3%28`)

    assert.equal(response.status, 400)
    const body = (await response.json()) as { error: { code: string; request_id: string } }
    assert.equal(body.error.code, 'malformed_url')
    assert.equal(body.error.request_id, response.headers.get('x-request-id'))
  })
})
