import { test } from '@japa/runner'
import vine from '@vinejs/vine'
import router from '@adonisjs/core/services/router'
import { errors as authErrors } from '@adonisjs/auth'
import env from '#start/env'
import { E_SOURCE_UNAVAILABLE } from '#feeds/exceptions'
import { forgetRateLimitCounts, setRateLimits } from '#tests/support/rate_limits'

/**
 * A route that exists only in this test file, so the error contract is
 * checked apart from any endpoint's own rules (tests/functional/http/
 * bad_input.spec.ts sends malformed input to the real endpoints).
 */
const echoValidator = vine.create({
  amount_microstx: vine.number().withoutDecimals().min(1),
  memo: vine.string(),
})
router.post('/__test__/echo', async ({ request }) => request.validateUsing(echoValidator))
router.get('/__test__/source-down', async () => {
  throw new E_SOURCE_UNAVAILABLE(['whale-alerts'])
})
router.get('/__test__/library-unauthorized', async () => {
  throw new authErrors.E_UNAUTHORIZED_ACCESS('Unauthorized access', {
    guardDriverName: 'access_tokens',
  })
})
router.get('/__test__/crash', async () => {
  throw new Error('database password is hunter2')
})
router.get('/__test__/database-crash', async () => {
  throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
    code: '22021',
  })
})

test.group('JSON errors', () => {
  test('an unknown route is a 404 JSON error, never an HTML page', async ({ client, assert }) => {
    const response = await client.get('/no/such/route').header('accept', 'text/html')

    response.assertStatus(404)
    assert.match(response.header('content-type') ?? '', /application\/json/)
    response.assertBody({
      error: {
        code: 'route_not_found',
        message: 'Cannot GET:/no/such/route',
        request_id: response.header('x-request-id'),
      },
    })
  })

  test('a validation failure is a 422 naming each field', async ({ client }) => {
    const response = await client.post('/__test__/echo').json({ amount_microstx: 1.5 })

    response.assertStatus(422)
    response.assertBodyContains({
      error: {
        code: 'validation_failed',
        fields: [
          { field: 'amount_microstx', rule: 'withoutDecimals' },
          { field: 'memo', rule: 'required' },
        ],
      },
    })
  })

  test('malformed JSON is a 400 JSON error', async ({ assert }) => {
    const response = await fetch(`http://${env.get('HOST')}:${env.get('PORT')}/__test__/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount_microstx":',
    })

    assert.equal(response.status, 400)
    assert.deepEqual(await response.json(), {
      error: {
        code: 'invalid_json',
        message: 'The request body is not valid JSON',
        request_id: response.headers.get('x-request-id'),
      },
    })
  })

  test('an unexpected error is a 500 without its message or stack', async ({ client, assert }) => {
    const response = await client.get('/__test__/crash')

    response.assertStatus(500)
    response.assertBody({
      error: {
        code: 'internal_error',
        message: 'Internal server error',
        request_id: response.header('x-request-id'),
      },
    })
    assert.notInclude(response.text(), 'hunter2')
  })

  test('a library error that renders itself is answered in our shape, with the request id', async ({
    client,
  }) => {
    const response = await client
      .get('/__test__/library-unauthorized')
      .header('x-request-id', 'req-7')

    response.assertStatus(401)
    response.assertBody({
      error: { code: 'unauthenticated', message: 'Unauthorized access', request_id: 'req-7' },
    })
  })

  test("a 500 never carries a database's or library's error code", async ({ client, assert }) => {
    const response = await client.get('/__test__/database-crash').header('x-request-id', 'req-42')

    response.assertStatus(500)
    response.assertBody({
      error: { code: 'internal_error', message: 'Internal server error', request_id: 'req-42' },
    })
    assert.notInclude(response.text(), '22021')
  })
})

test.group('Domain errors', () => {
  test('an unavailable feed source is a 503 with the source_unavailable code', async ({
    client,
  }) => {
    const response = await client.get('/__test__/source-down')

    response.assertStatus(503)
    response.assertBody({
      error: {
        code: 'source_unavailable',
        message: 'The source of feed "whale-alerts" is unavailable; nothing was charged',
        request_id: response.header('x-request-id'),
      },
    })
  })
})

test.group('Request ids', () => {
  test('a sane x-request-id is echoed, anything else is replaced by a fresh id', async ({
    client,
    assert,
  }) => {
    const echoed = await client.get('/health').header('x-request-id', 'agent-42.call:7')
    assert.equal(echoed.header('x-request-id'), 'agent-42.call:7')

    const replaced = await client.get('/health').header('x-request-id', 'bad id\twith spaces')
    assert.match(replaced.header('x-request-id') ?? '', /^[0-9a-f-]{36}$/)

    const generated = await client.get('/no/such/route')
    assert.match(generated.header('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
  })
})

test.group('Request ids in error bodies', (group) => {
  let restoreRateLimits = () => {}
  group.each.setup(async () => {
    await forgetRateLimitCounts()
    restoreRateLimits = setRateLimits({ signIn: 1 })
    return () => restoreRateLimits()
  })

  test('every kind of error body names the request id its x-request-id header carries', async ({
    assert,
  }) => {
    const base = `http://${env.get('HOST')}:${env.get('PORT')}`
    const json = { 'content-type': 'application/json' }
    const kinds: Array<[expected: string, path: string, init?: RequestInit]> = [
      ['404 route_not_found', '/no/such/route'],
      ['404 feed_not_found', '/feeds/whale-alert'],
      ['422 validation_failed', '/__test__/echo', { method: 'POST', headers: json, body: '{}' }],
      ['401 unauthenticated', '/me/providers'],
      ['400 invalid_json', '/__test__/echo', { method: 'POST', headers: json, body: '{' }],
      [
        '415 unsupported_media_type',
        '/__test__/echo',
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'memo=x' },
      ],
      [
        '415 content_encoding_unsupported',
        '/__test__/echo',
        { method: 'POST', headers: { ...json, 'content-encoding': 'zstd' }, body: '{}' },
      ],
      [
        '413 request_entity_too_large',
        '/__test__/echo',
        { method: 'POST', headers: json, body: `"${'x'.repeat(1_100_000)}"` },
      ],
      ['422 validation_failed', '/auth/nonce', { method: 'POST', headers: json, body: '{}' }],
      ['429 too_many_requests', '/auth/nonce', { method: 'POST', headers: json, body: '{}' }],
      ['503 source_unavailable', '/__test__/source-down'],
      ['500 internal_error', '/__test__/crash'],
    ]

    for (const [expected, path, init] of kinds) {
      const response = await fetch(`${base}${path}`, init)
      const { error } = (await response.json()) as { error: { code: string; request_id: string } }
      assert.equal(`${response.status} ${error.code}`, expected)
      const header = response.headers.get('x-request-id')
      assert.match(header ?? '', /^[0-9a-f-]{36}$/, `${expected}: x-request-id`)
      assert.equal(error.request_id, header, `${expected}: error.request_id`)
    }

    const echoed = await fetch(`${base}/no/such/route`, { headers: { 'x-request-id': 'agent-7' } })
    assert.equal(
      ((await echoed.json()) as { error: { request_id: string } }).error.request_id,
      'agent-7'
    )
  })
})
