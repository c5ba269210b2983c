import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createHash, createHmac, randomBytes } from 'node:crypto'
import {
  createMemoryReplayStore,
  deriveKey,
  signTollboothRequest,
  stringToSign,
  verifyTollboothRequest,
} from '../src/index.js'

// The vector published in docs/partner-bridge.md (cross-checked with openssl).
const VECTOR = {
  secret: 'tbs_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8',
  keyHex: '9f1344e8f836a1d6db865cbddb50c7e37575d9faad483ee1544378d55b072774',
  method: 'GET',
  pathAndQuery: '/v1/prices?symbol=BTC',
  timestamp: 1767225600,
  id: '5f0c6a2e-8b1d-4c3f-9a7e-2d4b6c8e0f13',
  provider: 'acme-data',
  bodyHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  signature: '544b6b7ccb5147677862ee0debcca02034258039ce7e0558acebbbe88a5d462f',
}
const NOW_MS = VECTOR.timestamp * 1000

const SECRET = `tbs_${randomBytes(32).toString('base64url')}`

function signed(overrides = {}) {
  return signTollboothRequest({
    secret: SECRET,
    method: 'GET',
    pathAndQuery: '/v1/prices?symbol=BTC',
    provider: 'acme-data',
    timestamp: VECTOR.timestamp,
    ...overrides,
  })
}

function verify(overrides = {}) {
  return verifyTollboothRequest({
    secret: SECRET,
    method: 'GET',
    url: '/v1/prices?symbol=BTC',
    headers: signed(),
    now: NOW_MS,
    replayStore: createMemoryReplayStore(),
    ...overrides,
  })
}

describe('test vector', () => {
  it('matches an independent HMAC computation', () => {
    const key = createHash('sha256').update(VECTOR.secret).digest()
    const bodyHash = createHash('sha256').update('').digest('hex')
    const message = `v1\nGET\n/v1/prices?symbol=BTC\n1767225600\n${VECTOR.id}\n${bodyHash}`
    assert.equal(key.toString('hex'), VECTOR.keyHex)
    assert.equal(bodyHash, VECTOR.bodyHash)
    assert.equal(createHmac('sha256', key).update(message).digest('hex'), VECTOR.signature)

    assert.equal(deriveKey(VECTOR.secret).toString('hex'), VECTOR.keyHex)
    assert.equal(stringToSign(VECTOR), message)
    assert.deepEqual(signTollboothRequest(VECTOR), {
      'x-tollbooth-id': VECTOR.id,
      'x-tollbooth-timestamp': '1767225600',
      'x-tollbooth-provider': 'acme-data',
      'x-tollbooth-signature': `v1=${VECTOR.signature}`,
    })
  })

  it('signs a body by its SHA-256, whatever its type', () => {
    const body = '{"price":97000.5}'
    const base = { ...VECTOR, method: 'post', pathAndQuery: '/v1/ingest?batch=7' }
    const expected = [
      'v1\nPOST\n/v1/ingest?batch=7\n1767225600',
      VECTOR.id,
      createHash('sha256').update(body).digest('hex'),
    ].join('\n')
    assert.equal(stringToSign({ ...base, body }), expected)
    assert.equal(stringToSign({ ...base, body: Buffer.from(body) }), expected)
    assert.equal(stringToSign({ ...base, body: new TextEncoder().encode(body) }), expected)
    assert.throws(() => stringToSign({ ...base, body: { price: 1 } }), TypeError)
  })

  it('signs the same with the derived key as with the secret', () => {
    const { secret, ...withoutSecret } = VECTOR
    const withKey = signTollboothRequest({ ...withoutSecret, key: deriveKey(secret) })
    assert.equal(withKey['x-tollbooth-signature'], `v1=${VECTOR.signature}`)
    assert.throws(() => signTollboothRequest({ ...withoutSecret, key: VECTOR.keyHex }), TypeError)
  })

  it('defaults the id to a fresh UUID v4 and the timestamp to now', () => {
    const { secret, method, pathAndQuery, provider } = VECTOR
    const first = signTollboothRequest({ secret, method, pathAndQuery, provider })
    const second = signTollboothRequest({ secret, method, pathAndQuery, provider })
    assert.match(first['x-tollbooth-id'], /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-/)
    assert.notEqual(first['x-tollbooth-id'], second['x-tollbooth-id'])
    const age = Date.now() / 1000 - Number(first['x-tollbooth-timestamp'])
    assert.ok(age >= 0 && age < 5)
  })
})

describe('verifyTollboothRequest', () => {
  it('accepts a valid request', () => {
    const headers = signed({ id: VECTOR.id })
    assert.deepEqual(verify({ headers }), {
      ok: true,
      id: VECTOR.id,
      provider: 'acme-data',
      timestamp: VECTOR.timestamp,
    })
  })

  it('accepts the published vector', () => {
    const headers = signTollboothRequest(VECTOR)
    const result = verify({ secret: VECTOR.secret, headers })
    assert.equal(result.ok, true)
  })

  it('refuses a wrong secret', () => {
    const other = `tbs_${randomBytes(32).toString('base64url')}`
    assert.deepEqual(verify({ secret: other }), { ok: false, reason: 'bad_signature' })
  })

  it('accepts any of several secrets', () => {
    const old = `tbs_${randomBytes(32).toString('base64url')}`
    assert.equal(verify({ secret: [old, SECRET] }).ok, true)
    assert.equal(verify({ secret: [SECRET, old] }).ok, true)
    assert.equal(verify({ secret: [old] }).reason, 'bad_signature')
    assert.throws(() => verify({ secret: [] }), TypeError)
    assert.throws(() => verify({ secret: undefined }), TypeError)
  })

  it('verifies with the derived key instead of the secret', () => {
    const other = deriveKey(`tbs_${randomBytes(32).toString('base64url')}`)
    assert.equal(verify({ secret: undefined, key: deriveKey(SECRET) }).ok, true)
    assert.equal(verify({ secret: undefined, key: [other, deriveKey(SECRET)] }).ok, true)
    assert.equal(verify({ secret: undefined, key: other }).reason, 'bad_signature')
    assert.throws(() => verify({ secret: undefined, key: Buffer.from('short') }), TypeError)
    assert.throws(() => verify({ secret: undefined, key: [] }), TypeError)
  })

  it('accepts timestamps up to the tolerance away, in both directions', () => {
    for (const offset of [-300, 300]) {
      const headers = signed({ timestamp: VECTOR.timestamp + offset })
      assert.equal(verify({ headers }).ok, true, `offset ${offset}`)
    }
    // The last millisecond of the second that is still within the window.
    const headers = signed({ timestamp: VECTOR.timestamp - 300 })
    assert.equal(verify({ headers, now: () => NOW_MS + 999 }).ok, true)
  })

  it('refuses stale timestamps, in both directions', () => {
    for (const offset of [-301, 301, -86_400]) {
      const headers = signed({ timestamp: VECTOR.timestamp + offset })
      assert.deepEqual(verify({ headers }), { ok: false, reason: 'stale_timestamp' })
    }
    const headers = signed({ timestamp: VECTOR.timestamp - 60 })
    assert.equal(verify({ headers, toleranceSeconds: 30 }).reason, 'stale_timestamp')
    assert.equal(verify({ headers, now: () => NOW_MS - 60_000 }).ok, true)
  })

  it('refuses a replayed id and accepts a distinct one', () => {
    const replayStore = createMemoryReplayStore()
    const headers = signed()
    assert.equal(verify({ headers, replayStore }).ok, true)
    assert.deepEqual(verify({ headers, replayStore }), { ok: false, reason: 'replayed' })
    assert.equal(verify({ headers: signed(), replayStore }).ok, true)
  })

  it('remembers an id only once its signature is valid', () => {
    const replayStore = createMemoryReplayStore()
    const headers = signed()
    const forged = { ...headers, 'x-tollbooth-signature': `v1=${'0'.repeat(64)}` }
    assert.equal(verify({ headers: forged, replayStore }).reason, 'bad_signature')
    assert.equal(replayStore.size, 0)
    assert.equal(verify({ headers, replayStore }).ok, true)
  })

  it('works with an asynchronous replay store', async () => {
    const seen = new Set()
    const replayStore = {
      async checkAndRemember(id) {
        return seen.has(id) ? false : Boolean(seen.add(id))
      },
    }
    const headers = signed()
    const first = verify({ headers, replayStore })
    assert.ok(first instanceof Promise)
    assert.deepEqual(await first, {
      ok: true,
      id: headers['x-tollbooth-id'],
      provider: 'acme-data',
      timestamp: VECTOR.timestamp,
    })
    const again = await verify({ headers, replayStore })
    assert.equal(again.reason, 'replayed')
    // A failure before the replay step needs no store and is returned directly.
    assert.equal(verify({ secret: 'tbs_other', headers, replayStore }).reason, 'bad_signature')
  })

  it('refuses a tampered path, query, method, body, id or timestamp', () => {
    const cases = [
      { url: '/v1/prices?symbol=ETH' },
      { url: '/v1/prices?symbol=BTC&limit=5' },
      { url: '/v1/prices' },
      { url: '/v1/other?symbol=BTC' },
      { method: 'POST' },
      { body: 'x' },
      { headers: { ...signed(), 'x-tollbooth-id': VECTOR.id } },
      { headers: { ...signed(), 'x-tollbooth-timestamp': String(VECTOR.timestamp + 1) } },
    ]
    for (const overrides of cases) {
      assert.deepEqual(verify(overrides), { ok: false, reason: 'bad_signature' }, overrides)
    }
  })

  it('checks a body', () => {
    const body = '{"price":97000.5}'
    const headers = signed({ method: 'POST', body })
    assert.equal(verify({ method: 'POST', headers, body: Buffer.from(body) }).ok, true)
    assert.equal(verify({ method: 'POST', headers, body: `${body} ` }).reason, 'bad_signature')
    assert.equal(verify({ method: 'POST', headers }).reason, 'bad_signature')
  })

  it('refuses missing headers', () => {
    for (const name of Object.keys(signed())) {
      const headers = { ...signed(), [name]: undefined }
      assert.deepEqual(verify({ headers }), { ok: false, reason: 'missing_headers' }, name)
      assert.equal(verify({ headers: { ...signed(), [name]: '' } }).reason, 'missing_headers')
    }
    assert.equal(verify({ headers: {} }).reason, 'missing_headers')
  })

  it('refuses malformed signature headers without throwing', () => {
    const headers = signed()
    const valid = headers['x-tollbooth-signature']
    const hex = valid.slice(3)
    const malformed = [
      hex,
      `v2=${hex}`,
      `v1=${hex.slice(1)}`,
      `v1=${hex}00`,
      `v1=${'z'.repeat(64)}`,
      `v1=${hex}, v1=${hex}`,
      `v1= ${hex}`,
      'v1=',
    ]
    for (const signature of malformed) {
      const edited = { ...headers, 'x-tollbooth-signature': signature }
      assert.deepEqual(verify({ headers: edited }), { ok: false, reason: 'malformed_signature' })
    }
    const repeated = { ...headers, 'x-tollbooth-signature': [valid, valid] }
    assert.equal(verify({ headers: repeated }).reason, 'malformed_signature')
    assert.equal(verify({ headers: { ...headers, 'x-tollbooth-signature': [valid] } }).ok, true)
  })

  it('refuses a timestamp that is not integer seconds', () => {
    for (const timestamp of ['1767225600.5', '-1767225600', '1767225600000', 'now', ' 1']) {
      const headers = { ...signed(), 'x-tollbooth-timestamp': timestamp }
      assert.equal(verify({ headers }).reason, 'stale_timestamp', timestamp)
    }
  })

  it('uses the pathname and search of a full URL', () => {
    const headers = signed()
    assert.equal(verify({ url: 'https://api.partner.example/v1/prices?symbol=BTC' }).ok, true)
    assert.equal(verify({ url: new URL('http://127.0.0.1:8080/v1/prices?symbol=BTC') }).ok, true)
    assert.equal(
      verify({ headers, url: 'https://other.example/v1/prices' }).reason,
      'bad_signature'
    )
    const fromUrl = signed({ pathAndQuery: 'https://api.partner.example/v1/prices?symbol=BTC' })
    assert.equal(verify({ headers: fromUrl }).ok, true)
  })

  it('reads a WHATWG Headers object or a plain object in any case', () => {
    assert.equal(verify({ headers: new Headers(signed()) }).ok, true)
    const upper = Object.fromEntries(
      Object.entries(signed()).map(([name, value]) => [name.toUpperCase(), value])
    )
    assert.equal(verify({ headers: upper }).ok, true)
    const headers = new Headers(signed())
    headers.delete('X-Tollbooth-Provider')
    assert.equal(verify({ headers }).reason, 'missing_headers')
  })

  it('takes now as a number or a function', () => {
    const headers = signed()
    assert.equal(verify({ headers, now: () => NOW_MS }).ok, true)
    assert.equal(verify({ headers, now: NOW_MS + 301_000 }).reason, 'stale_timestamp')
  })
})

describe('createMemoryReplayStore', () => {
  it('forgets ids once they expire and sweeps them', () => {
    const store = createMemoryReplayStore({ toleranceSeconds: 300 })
    assert.equal(store.checkAndRemember('a', 10_000, 0), true)
    assert.equal(store.checkAndRemember('b', 20_000, 0), true)
    assert.equal(store.checkAndRemember('a', 10_000, 9_999), false)
    // Expired but not swept yet: no longer counts as seen.
    assert.equal(store.checkAndRemember('a', 20_000, 10_000), true)
    assert.equal(store.size, 2)
    // The next sweep (300 s after the first) removes every expired id.
    assert.equal(store.checkAndRemember('c', 400_000, 300_000), true)
    assert.equal(store.size, 1)
  })

  it('accepts an id again after the window, when the timestamp check refuses it anyway', () => {
    const replayStore = createMemoryReplayStore()
    const headers = signed()
    assert.equal(verify({ headers, replayStore }).ok, true)
    assert.equal(verify({ headers, replayStore, now: NOW_MS + 300_999 }).reason, 'replayed')
    assert.equal(verify({ headers, replayStore, now: NOW_MS + 301_000 }).reason, 'stale_timestamp')
  })
})
