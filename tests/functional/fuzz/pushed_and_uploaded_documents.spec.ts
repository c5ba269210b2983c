import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import db from '@adonisjs/lucid/services/db'
import fc from 'fast-check'
import {
  type RawAnswer,
  assertDeclaredAnswer,
  assertNothingWritten,
  assertWroteOnly,
  databaseFingerprint,
  fuzz,
  isRefusal,
  jsonText,
  nastyValue,
  rawCall,
  useFuzzGroup,
} from '#tests/support/fuzz'
import { pushHeaders, registerPushAndUploadFeeds } from '#tests/support/hosted_mirror'

const HANDLE = 'mirror-co'
const INGEST = `/ingest/${HANDLE}/ticker`
/** The server's body limit (config/bodyparser.ts) and the received drivers' cap. */
const MAX_BODY = 1_048_576

const loneSurrogate = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff')
/** Text with lone surrogates among any code points (JSON.stringify escapes them as `\ud800`). */
const surrogateText = fc
  .array(fc.oneof(loneSurrogate, fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 6 })
  .map((parts) => parts.join(''))
const key = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 10 }),
  surrogateText,
  fc.constantFrom('__proto__', 'constructor', '')
)

/** `depth` nested arrays or objects, around the 256 levels a document may nest. */
function nestedText(depth: number, kind: 'array' | 'object') {
  return kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
}

/**
 * Document bodies a provider could send: JSON objects and arrays holding
 * edge values (raw numbers, lone surrogates, NUL, prototype keys), nesting
 * around the depth limit, sizes around the body limit, JSON scalars, text
 * that is not JSON and bytes that are not UTF-8.
 */
const documentBodies: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .oneof(fc.dictionary(key, nastyValue, { maxKeys: 5 }), fc.array(nastyValue, { maxLength: 5 }))
      .map(jsonText),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
        fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 })
      )
      .map((value) => JSON.stringify(value)),
  },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(surrogateText, surrogateText, { maxKeys: 3 })
      .map((value) => JSON.stringify(value)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 254, max: 259 }),
        fc.constantFrom('array' as const, 'object' as const)
      )
      .map(([depth, kind]) => nestedText(depth, kind)),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(MAX_BODY - 1, MAX_BODY, MAX_BODY + 1, 2 * MAX_BODY)
      .map((size) => `{"a":"${'x'.repeat(size - 8)}"}`),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\uFEFF',
      '\uFEFF{"a":1}',
      'null',
      '1',
      '"text"',
      'true',
      '{"a":1,"a":2}',
      '{"__proto__":{"polluted":1}}',
      '{"a":"\\u0000"}',
      '{"a\\u0000":1}',
      '{"a":"\u0000"}',
      '{"a":"\\ud800"}',
      '{"a":"\\udfff\\ud800"}',
      '[1,]',
      '{"a":1}garbage',
      '{"a":1e400}',
      '[-0]',
      '[1e-400]',
      '[12345678901234567890123]',
      nestedText(20_000, 'array'),
      `[${'"x",'.repeat(10_000)}1]`
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }) }
)

/** A header value as an HTTP client can send it: visible ASCII and Latin-1. */
const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((code) => code !== 0x7f)
    .map((code) => String.fromCharCode(code)),
  maxLength: 80,
})

/** How a fuzzed push changes one correctly signed header: kept, dropped or replaced. */
type Change = (signed: string) => string | undefined
const kept: Change = (signed) => signed
const dropped: Change = () => undefined
const replacedBy =
  (value: string): Change =>
  () =>
    value

function changes(...shapes: Array<fc.Arbitrary<Change>>): fc.Arbitrary<Change> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(kept) },
    { weight: 1, arbitrary: fc.constant(dropped) },
    { weight: 1, arbitrary: headerText.map(replacedBy) },
    ...shapes.map((arbitrary) => ({ weight: 2, arbitrary }))
  )
}

const HEADER_CHANGES = {
  'x-tollbooth-id': changes(
    fc
      .oneof(
        fc.uuid(),
        fc.constantFrom('', 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(4_000), 'été')
      )
      .map(replacedBy)
  ),
  'x-tollbooth-timestamp': changes(
    fc.integer({ min: -400, max: 400 }).map(
      (shift): Change =>
        (signed) =>
          String(Number(signed) + shift)
    ),
    fc.constantFrom<Change>(
      (signed) => `${signed}.5`,
      (signed) => `+${signed}`,
      (signed) => `0${signed}`,
      (signed) => `${signed}000`,
      (signed) => `${Number(signed)}e0`
    ),
    fc.constantFrom('0', '-1', '1e9', 'abc', '9'.repeat(30), '0x10').map(replacedBy)
  ),
  'x-tollbooth-provider': changes(
    fc.constantFrom('other-co', HANDLE.toUpperCase(), `${HANDLE}x`, 'acme-data').map(replacedBy)
  ),
  'x-tollbooth-signature': changes(
    fc.constantFrom<Change>(
      (signed) => signed.toUpperCase(),
      (signed) => signed.replace('v1=', 'v2='),
      (signed) => signed.replace('v1=', ''),
      (signed) => signed.slice(0, -1),
      (signed) => `${signed}0`,
      (signed) => `${signed},${signed}`,
      (signed) => `v1=${signed}`,
      (signed) => `${signed.slice(0, -1)}${signed.endsWith('0') ? '1' : '0'}`
    ),
    fc
      .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 })
      .map((hex) => replacedBy(`v1=${hex}`))
  ),
}

const PATHS = fc.oneof(
  { weight: 6, arbitrary: fc.constant(INGEST) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `/ingest/${HANDLE}/rates`,
      `/ingest/${HANDLE}/nope`,
      '/ingest/other-co/ticker',
      `/ingest/${HANDLE.toUpperCase()}/ticker`,
      `${INGEST}?a=1`,
      `${INGEST}/`,
      `/ingest/${HANDLE}/%74icker`
    ),
  }
)

const CONTENT_TYPES = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/vnd.api+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream'
    ),
  }
)

function text(body: string | Uint8Array) {
  return typeof body === 'string' ? body : Buffer.from(body).toString('utf8')
}

/**
 * The documents a provider sends at the edge: pushes to
 * `POST /ingest/:handle/:slug` (with their Tollbooth signature v1 headers)
 * and the owner's uploads. A declared answer always; a refusal writes
 * nothing; an accepted document writes only its snapshot, its source's
 * health and (a push) its id, and is stored as the parsed body.
 */
test.group('Fuzzing | pushed and uploaded documents', (group) => {
  useFuzzGroup(group)

  /** Sends one document and checks what it wrote against the answer. */
  async function sendChecked(
    assert: Assert,
    send: () => Promise<RawAnswer>,
    accepted: { status: number; slug: string; tables: string[] },
    body: string | Uint8Array,
    input: unknown
  ) {
    const before = await databaseFingerprint()
    const answer = await send()
    assertDeclaredAnswer(answer, input)
    if (isRefusal(answer)) return assertNothingWritten(before, input)
    assert.equal(answer.status, accepted.status, JSON.stringify(input).slice(0, 300))
    await assertWroteOnly(before, accepted.tables, input)
    const stored = await db
      .from('feed_snapshots')
      .join('feeds', 'feeds.id', 'feed_snapshots.feed_id')
      .where('feeds.slug', accepted.slug)
      .where('version', answer.json.snapshot.version)
      .select('data')
      .firstOrFail()
    // JSON has one zero: JSON.stringify, and so every buyer's answer, writes -0 as 0.
    const parsed = JSON.parse(text(body).replace(/^\uFEFF/, ''), (_key, value) =>
      Object.is(value, -0) ? 0 : value
    )
    assert.deepEqual(stored.data, parsed, JSON.stringify(input).slice(0, 300))
  }

  const PUSHED = {
    status: 202,
    slug: 'ticker',
    tables: ['feed_snapshots', 'feed_source_states', 'push_receipts'],
  }

  test('POST /ingest/:handle/:slug with fuzzed bodies, X-Tollbooth-* headers, paths and types', async ({
    client,
    assert,
  }) => {
    const { pushSecret } = await registerPushAndUploadFeeds(client)
    const pushes = fc.record({
      body: documentBodies,
      path: PATHS,
      contentType: CONTENT_TYPES,
      changes: fc.record(HEADER_CHANGES),
    })

    await fuzz(pushes, async (push) => {
      const signed = pushHeaders(pushSecret, push.path, push.body)
      const headers: Record<string, string> = { 'content-type': push.contentType }
      for (const [name, change] of Object.entries(push.changes)) {
        const value = change(signed[name])
        if (value !== undefined) headers[name] = value
      }
      const input = { ...push, headers, body: text(push.body).slice(0, 200) }
      await sendChecked(
        assert,
        () => rawCall('POST', push.path, { body: push.body, headers }),
        PUSHED,
        push.body,
        input
      )
    })
  })

  test('validly signed pushes of fuzzed documents', async ({ client, assert }) => {
    const { pushSecret } = await registerPushAndUploadFeeds(client)

    await fuzz(documentBodies, async (body) => {
      const headers = pushHeaders(pushSecret, INGEST, body)
      await sendChecked(
        assert,
        () => rawCall('POST', INGEST, { body, headers }),
        PUSHED,
        body,
        text(body).slice(0, 300)
      )
    })
  })

  test('POST /providers/id/:id/feeds/:slug/upload with fuzzed documents and types', async ({
    client,
    assert,
  }) => {
    const { token, uploadPath } = await registerPushAndUploadFeeds(client)

    await fuzz(fc.tuple(documentBodies, CONTENT_TYPES), async ([body, contentType]) => {
      await sendChecked(
        assert,
        () =>
          rawCall('POST', uploadPath, { body, token, headers: { 'content-type': contentType } }),
        { status: 200, slug: 'rates', tables: ['feed_snapshots', 'feed_source_states'] },
        body,
        { contentType, body: text(body).slice(0, 300) }
      )
    })
  })
})
