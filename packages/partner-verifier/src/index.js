/**
 * Tollbooth signature v1: sign (Tollbooth's side) and verify (the partner's
 * side) the requests Tollbooth sends to a partner's API. Plain ESM with no
 * dependency beyond node:crypto, so a partner can copy this file as it is.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto'

export const DEFAULT_TOLERANCE_SECONDS = 300

const HEADER = {
  id: 'x-tollbooth-id',
  timestamp: 'x-tollbooth-timestamp',
  provider: 'x-tollbooth-provider',
  signature: 'x-tollbooth-signature',
}
const SIGNATURE_PATTERN = /^v1=([0-9a-f]{64})$/i
const TIMESTAMP_PATTERN = /^\d{1,15}$/
const ABSOLUTE_URL = /^[a-z][a-z\d+.-]*:\/\//i

/**
 * The HMAC key K: SHA-256 of the secret string. Tollbooth stores only K, the
 * partner derives it from the `tbs_…` secret it was shown.
 */
export function deriveKey(secret) {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('secret must be a non-empty string')
  }
  return createHash('sha256').update(secret, 'utf8').digest()
}

/**
 * S, the signed string. A full URL is reduced to its pathname and search, so
 * both sides sign what appears in the HTTP request line.
 */
export function stringToSign({ method, pathAndQuery, timestamp, id, body }) {
  return [
    'v1',
    method.toUpperCase(),
    toPathAndQuery(pathAndQuery),
    String(timestamp),
    id,
    createHash('sha256').update(toBytes(body)).digest('hex'),
  ].join('\n')
}

/**
 * The four X-Tollbooth-* headers (lowercase names) for one request. Give the
 * `secret` or its derived `key`; Tollbooth's server only has the key.
 */
export function signTollboothRequest({
  secret,
  key,
  method,
  pathAndQuery,
  body,
  provider,
  id = randomUUID(),
  timestamp = Math.floor(Date.now() / 1000),
}) {
  // A key read back as a hex or base64 string would silently sign with the wrong bytes.
  if (key !== undefined && !(key instanceof Uint8Array && key.length === 32)) {
    throw new TypeError('key must be the 32-byte Buffer/Uint8Array returned by deriveKey')
  }
  if (typeof provider !== 'string' || provider === '') {
    throw new TypeError('provider must be a non-empty string')
  }
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError('timestamp must be Unix seconds (an integer)')
  }
  const message = stringToSign({ method, pathAndQuery, timestamp, id, body })
  return {
    [HEADER.id]: id,
    [HEADER.timestamp]: String(timestamp),
    [HEADER.provider]: provider,
    [HEADER.signature]: `v1=${hmac(key ?? deriveKey(secret), message).toString('hex')}`,
  }
}

const defaultReplayStore = createMemoryReplayStore()

/**
 * Checks one request: headers present, timestamp within the tolerance, the
 * signature (constant time, against each secret when given several), then
 * that the id was not seen before. The id is remembered only once the
 * signature is valid, so unsigned garbage cannot fill the replay store.
 *
 * Returns the result directly, or a Promise of it when the replay store
 * answers with a Promise (`await` works in both cases). Malformed input
 * headers give `{ ok: false }`, never an exception; a missing secret or a
 * body that is not raw bytes is a programming error and throws.
 */
export function verifyTollboothRequest({
  secret,
  key,
  method,
  url,
  headers,
  body,
  now,
  replayStore = defaultReplayStore,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
}) {
  const keys = verificationKeys(secret, key)

  const id = readHeader(headers, HEADER.id)
  const timestamp = readHeader(headers, HEADER.timestamp)
  const provider = readHeader(headers, HEADER.provider)
  const signature = readHeader(headers, HEADER.signature)
  if (!id || !timestamp || !provider || !signature) {
    return failure('missing_headers')
  }

  const nowMs = typeof now === 'function' ? now() : (now ?? Date.now())
  const seconds = Number(timestamp)
  if (
    !TIMESTAMP_PATTERN.test(timestamp) ||
    Math.abs(Math.floor(nowMs / 1000) - seconds) > toleranceSeconds
  ) {
    return failure('stale_timestamp')
  }

  const match = SIGNATURE_PATTERN.exec(signature)
  if (!match) {
    return failure('malformed_signature')
  }
  const given = Buffer.from(match[1], 'hex')
  const expected = stringToSign({ method, pathAndQuery: url, timestamp, id, body })
  // Every key is tried (no early exit), so the timing does not tell which one matched.
  const matches = keys.map((key) => timingSafeEqual(hmac(key, expected), given))
  if (!matches.includes(true)) {
    return failure('bad_signature')
  }

  // The first millisecond at which this timestamp falls out of the window.
  const expiresAtMs = (seconds + toleranceSeconds + 1) * 1000
  const settle = (fresh) =>
    fresh ? { ok: true, id, provider, timestamp: seconds } : failure('replayed')
  const fresh = replayStore.checkAndRemember(id, expiresAtMs, nowMs)
  return typeof fresh?.then === 'function' ? fresh.then(settle) : settle(fresh)
}

/** K for each secret given, or the derived keys themselves (a server that stores only K). */
function verificationKeys(secret, key) {
  if (key !== undefined) {
    const keys = [key].flat()
    if (keys.length === 0 || !keys.every((one) => one instanceof Uint8Array && one.length === 32)) {
      throw new TypeError('key must be a 32-byte Buffer/Uint8Array (deriveKey), or an array of them')
    }
    return keys
  }
  const secrets = [secret].flat()
  if (secrets.length === 0) {
    throw new TypeError('secret must be a string or a non-empty array of strings')
  }
  return secrets.map(deriveKey)
}

/**
 * An in-process replay store. An id is remembered until its timestamp leaves
 * the window (after that the timestamp check refuses it anyway); expired ids
 * are swept at most once per `toleranceSeconds`, so it holds at most about
 * three windows' worth of ids. Use a shared store (Redis `SET NX PXAT`, …)
 * when several processes serve the same partner API.
 */
export function createMemoryReplayStore({ toleranceSeconds = DEFAULT_TOLERANCE_SECONDS } = {}) {
  const expiries = new Map()
  let nextSweepAt = 0
  return {
    checkAndRemember(id, expiresAtMs, nowMs = Date.now()) {
      if (nowMs >= nextSweepAt) {
        for (const [seenId, expiresAt] of expiries) {
          if (expiresAt <= nowMs) {
            expiries.delete(seenId)
          }
        }
        nextSweepAt = nowMs + toleranceSeconds * 1000
      }
      if ((expiries.get(id) ?? 0) > nowMs) {
        return false
      }
      expiries.set(id, expiresAtMs)
      return true
    },
    get size() {
      return expiries.size
    },
  }
}

/**
 * For a node:http server: `(req) => Promise<result>`. The request body is
 * read only when there is one (Tollbooth's GETs have none) and, as the
 * stream is then consumed, handed back as `result.body` on success.
 */
export function nodeHttpVerifier(options) {
  return async (req) => {
    const body = hasBody(req) ? await readBody(req) : Buffer.alloc(0)
    const result = await verifyTollboothRequest({
      ...options,
      method: req.method,
      url: req.url,
      headers: req.headers,
      body,
    })
    return result.ok ? { ...result, body } : result
  }
}

/**
 * Express (or Connect) middleware. On success sets `req.tollbooth` to
 * `{ id, provider, timestamp }`; on failure answers 401 `{"error": reason}`.
 * A request with a body needs its raw bytes in `req.rawBody`, e.g.
 * `express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })`.
 */
export function expressMiddleware(options) {
  return (req, res, next) => {
    Promise.resolve()
      .then(() => {
        const body = isRawBody(req.rawBody) ? req.rawBody : undefined
        if (body === undefined && hasBody(req)) {
          throw new TypeError('expressMiddleware needs the raw request body in req.rawBody')
        }
        return verifyTollboothRequest({
          ...options,
          method: req.method,
          url: req.originalUrl ?? req.url,
          headers: req.headers,
          body,
        })
      })
      .then((result) => {
        if (!result.ok) {
          res.statusCode = 401
          res.setHeader('content-type', 'application/json; charset=utf-8')
          res.end(JSON.stringify({ error: result.reason }))
          return
        }
        req.tollbooth = { id: result.id, provider: result.provider, timestamp: result.timestamp }
        next()
      }, next)
  }
}

/**
 * Hono middleware. On success sets `c.get('tollbooth')` to
 * `{ id, provider, timestamp }`; on failure answers 401 `{"error": reason}`.
 * The body is read from a clone, so the handler can still read it.
 */
export function honoMiddleware(options) {
  return async (c, next) => {
    const { method, url, raw } = c.req
    const body =
      method === 'GET' || method === 'HEAD'
        ? undefined
        : new Uint8Array(await raw.clone().arrayBuffer())
    const result = await verifyTollboothRequest({
      ...options,
      method,
      url,
      headers: raw.headers,
      body,
    })
    if (!result.ok) {
      return c.json({ error: result.reason }, 401)
    }
    c.set('tollbooth', { id: result.id, provider: result.provider, timestamp: result.timestamp })
    await next()
  }
}

function failure(reason) {
  return { ok: false, reason }
}

function hmac(key, message) {
  return createHmac('sha256', key).update(message, 'utf8').digest()
}

function toPathAndQuery(url) {
  const text = String(url)
  if (!ABSOLUTE_URL.test(text)) {
    return text
  }
  const parsed = new URL(text)
  return parsed.pathname + parsed.search
}

function isRawBody(body) {
  return typeof body === 'string' || body instanceof Uint8Array
}

function toBytes(body) {
  if (body === undefined || body === null) {
    return ''
  }
  if (!isRawBody(body)) {
    throw new TypeError('body must be the raw request body: a string, Buffer or Uint8Array')
  }
  return body
}

/**
 * One header from a WHATWG Headers or a plain object in any case. Repeated
 * values are joined with ", " as Headers.get() does, which makes a repeated
 * X-Tollbooth-* header invalid rather than silently picking one.
 */
function readHeader(headers, name) {
  if (typeof headers.get === 'function') {
    return headers.get(name) ?? undefined
  }
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name)
  const value = key === undefined ? undefined : headers[key]
  return Array.isArray(value) ? value.join(', ') : value
}

function hasBody(req) {
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

async function readBody(stream) {
  const chunks = []
  for await (const chunk of stream) {
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
