/**
 * Each adapter behind a real node:http server on 127.0.0.1. Express and Hono
 * are not installed: their request/response/context objects are imitated
 * around the real node:http request, with only what the adapters use.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes, randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import {
  expressMiddleware,
  honoMiddleware,
  nodeHttpVerifier,
  signTollboothRequest,
} from '../src/index.js'

const SECRET = `tbs_${randomBytes(32).toString('base64url')}`
const PATH = '/v1/prices?symbol=BTC'

/** Starts `handler` on a random port for the tests of one describe block. */
function serve(handler) {
  const server = createServer((req, res) => {
    handler(req, res).catch((error) => {
      res.statusCode = 500
      res.end(String(error))
    })
  })
  const base = { url: '' }
  before(async () => {
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    base.url = `http://127.0.0.1:${server.address().port}`
  })
  after(() => {
    server.closeAllConnections()
    server.close()
  })
  return base
}

/** Sends a request signed with `secret`, or with the given `headers` instead. */
async function send(base, { method = 'GET', path = PATH, body, secret = SECRET, headers } = {}) {
  const signed = signTollboothRequest({
    secret,
    method,
    pathAndQuery: path,
    body,
    provider: 'acme-data',
  })
  const response = await fetch(base.url + path, {
    method,
    headers: headers ?? signed,
    body,
  })
  return { status: response.status, body: await response.json(), signed }
}

function sendJson(res, status, value) {
  res.statusCode = status
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(value))
}

async function readAll(req) {
  const chunks = []
  for await (const chunk of req) {
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

describe('nodeHttpVerifier', () => {
  const verify = nodeHttpVerifier({ secret: SECRET })
  const base = serve(async (req, res) => {
    const result = await verify(req)
    if (!result.ok) {
      return sendJson(res, 401, { error: result.reason })
    }
    sendJson(res, 200, { ...result, body: result.body.toString() })
  })

  it('accepts a signed GET and refuses its replay', async () => {
    const first = await send(base)
    assert.equal(first.status, 200)
    assert.equal(first.body.id, first.signed['x-tollbooth-id'])
    assert.equal(first.body.provider, 'acme-data')
    assert.equal(first.body.body, '')

    const replay = await send(base, { headers: first.signed })
    assert.deepEqual([replay.status, replay.body], [401, { error: 'replayed' }])
    const next = await send(base)
    assert.equal(next.status, 200)
  })

  it('checks and hands back a body', async () => {
    const body = '{"price":97000.5}'
    const ok = await send(base, { method: 'POST', path: '/v1/ingest', body })
    assert.equal(ok.status, 200)
    assert.equal(ok.body.body, body)

    const { signed } = await send(base, { method: 'POST', path: '/v1/ingest', body })
    const tampered = await fetch(`${base.url}/v1/ingest`, {
      method: 'POST',
      headers: { ...signed, 'x-tollbooth-id': randomUUID() },
      body: '{"price":1}',
    })
    assert.equal(tampered.status, 401)
  })

  it('refuses a wrong secret and missing headers', async () => {
    const wrong = await send(base, { secret: 'tbs_wrong' })
    assert.deepEqual(wrong.body, { error: 'bad_signature' })
    const bare = await send(base, { headers: {} })
    assert.deepEqual(bare.body, { error: 'missing_headers' })
  })
})

describe('expressMiddleware', () => {
  const middleware = expressMiddleware({ secret: SECRET })
  const base = serve(async (req, res) => {
    // What Express does: `originalUrl` keeps the full path while `url` is
    // relative to the router's mount point, and express.json's `verify`
    // hook (when used) keeps the raw body.
    req.originalUrl = req.url
    req.url = req.url.replace(/^\/v1/, '')
    if (req.headers['x-test-raw-body'] === 'keep') {
      req.rawBody = await readAll(req)
    }
    await new Promise((resolve) => {
      middleware(req, res, (error) => {
        if (error) {
          sendJson(res, 500, { error: error.message })
        } else {
          sendJson(res, 200, req.tollbooth)
        }
        resolve()
      })
      res.on('finish', resolve)
    })
  })

  it('sets req.tollbooth on a signed GET', async () => {
    const { status, body, signed } = await send(base)
    assert.equal(status, 200)
    assert.deepEqual(body, {
      id: signed['x-tollbooth-id'],
      provider: 'acme-data',
      timestamp: Number(signed['x-tollbooth-timestamp']),
    })
  })

  it('answers 401 with the reason', async () => {
    const wrong = await send(base, { secret: 'tbs_wrong' })
    assert.deepEqual([wrong.status, wrong.body], [401, { error: 'bad_signature' }])
    const { signed } = await send(base)
    const replay = await send(base, { headers: signed })
    assert.deepEqual([replay.status, replay.body], [401, { error: 'replayed' }])
  })

  it('verifies a body from req.rawBody and needs it when there is a body', async () => {
    const body = '{"price":97000.5}'
    const signed = signTollboothRequest({
      secret: SECRET,
      method: 'POST',
      pathAndQuery: '/v1/ingest',
      body,
      provider: 'acme-data',
    })
    const kept = await fetch(`${base.url}/v1/ingest`, {
      method: 'POST',
      headers: { ...signed, 'x-test-raw-body': 'keep' },
      body,
    })
    assert.equal(kept.status, 200)

    const { signed: other } = await send(base, { method: 'POST', path: '/v1/ingest', body })
    const withoutRawBody = await fetch(`${base.url}/v1/ingest`, {
      method: 'POST',
      headers: other,
      body,
    })
    assert.equal(withoutRawBody.status, 500)
    const { error } = await withoutRawBody.json()
    assert.match(error, /req\.rawBody/)
  })
})

describe('honoMiddleware', () => {
  const middleware = honoMiddleware({ secret: SECRET })
  const base = serve(async (req, res) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      for (const each of [value].flat()) {
        headers.append(name, each)
      }
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    const raw = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? await readAll(req) : undefined,
    })
    const variables = new Map()
    const c = {
      req: { method: raw.method, url: raw.url, raw },
      json: (value, status = 200) => Response.json(value, { status }),
      set: (name, value) => variables.set(name, value),
      get: (name) => variables.get(name),
    }
    let handled
    const refused = await middleware(c, async () => {
      // The handler can still read the body the middleware verified.
      handled = Response.json({ ...c.get('tollbooth'), body: await c.req.raw.text() })
    })
    const response = refused ?? handled
    sendJson(res, response.status, await response.json())
  })

  it('sets c.get("tollbooth") on a signed GET', async () => {
    const { status, body, signed } = await send(base)
    assert.equal(status, 200)
    assert.equal(body.id, signed['x-tollbooth-id'])
    assert.equal(body.provider, 'acme-data')
  })

  it('verifies a body and leaves it readable', async () => {
    const body = '{"price":97000.5}'
    const ok = await send(base, { method: 'POST', path: '/v1/ingest?batch=7', body })
    assert.equal(ok.status, 200)
    assert.equal(ok.body.body, body)
  })

  it('answers 401 with the reason', async () => {
    const wrong = await send(base, { secret: 'tbs_wrong' })
    assert.deepEqual([wrong.status, wrong.body], [401, { error: 'bad_signature' }])
    const stale = signTollboothRequest({
      secret: SECRET,
      method: 'GET',
      pathAndQuery: PATH,
      provider: 'acme-data',
      timestamp: Math.floor(Date.now() / 1000) - 301,
    })
    const old = await send(base, { headers: stale })
    assert.deepEqual([old.status, old.body], [401, { error: 'stale_timestamp' }])
  })
})
