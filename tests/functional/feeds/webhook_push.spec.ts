import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { sources as driverFactories } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { useBuyer, usePaidCallStack } from '#tests/support/paid_calls'
import { rawCall } from '#tests/support/fuzz'
import { pushHeaders } from '#tests/support/hosted_mirror'
import { mirrorRegistration, newOwner, registerProvider } from '#tests/support/providers'

const FEED = '/feeds/p/mirror-co/ticker'
const INGEST = '/ingest/mirror-co/ticker'

interface SignOptions {
  id?: string
  timestamp?: number
  path?: string
  provider?: string
}

/**
 * webhook_push end to end: the provider pushes JSON to /ingest/<handle>/<slug>
 * signed with the feed's push secret (Tollbooth signature v1, signed here with
 * the shipped packages/partner-verifier helper, as docs/hosted-mirror.md shows),
 * and each accepted push is what the next paid call serves.
 */
test.group('A webhook_push feed', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  const buyer = useBuyer(stack)

  async function registerPushFeed(client: ApiClient) {
    const owner = await newOwner(client)
    const registered = await registerProvider(
      client,
      owner.token,
      mirrorRegistration({ type: 'webhook_push' }, 'ticker')
    )
    const pushSecret = registered.push_secret!
    return { owner, providerId: registered.provider.id, pushSecret, registered }
  }

  /** A push as a provider's server sends it: raw bytes, with the given headers. */
  async function push(
    path: string,
    body: string,
    headers: Record<string, string>,
    contentType = 'application/json'
  ) {
    const answer = await rawCall('POST', path, {
      body,
      headers: { 'content-type': contentType, ...headers },
    })
    return { status: answer.status, body: answer.json as any }
  }

  function signed(secret: string, body: string, options: SignOptions = {}) {
    return pushHeaders(secret, options.path ?? INGEST, body, options)
  }

  function signedPush(secret: string, document: unknown, options: SignOptions = {}) {
    const body = typeof document === 'string' ? document : JSON.stringify(document)
    return push(options.path ?? INGEST, body, signed(secret, body, options))
  }

  async function currentSnapshot() {
    return db
      .from('feed_snapshots')
      .join('feeds', 'feeds.id', 'feed_snapshots.feed_id')
      .where('feeds.slug', 'ticker')
      .orderBy('version', 'desc')
      .select('version', 'content_hash', 'data')
      .first()
  }

  test('the push secret is shown once; a signed push becomes the snapshot a paid call serves', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, pushSecret, registered } = await registerPushFeed(client)
    assert.match(pushSecret, /^tbp_[\w-]{43}$/)
    assert.containsSubset(registered.feed, {
      source_type: 'webhook_push',
      source_health: { last_success_at: null, snapshot: null, next_poll_at: null },
    })
    assert.equal(new URL((registered.feed as { push_url: string }).push_url).pathname, INGEST)
    assert.notInclude(JSON.stringify(registered.provider), pushSecret)
    const shown = await client.get(`/providers/id/${providerId}`).bearerToken(owner.token)
    assert.notInclude(shown.text(), pushSecret)
    assert.isString(shown.body().provider.feeds[0].push_secret_issued_at)

    const before = await client.get(FEED)
    before.assertStatus(503)
    assert.equal(before.body().error.code, 'source_unavailable', 'no data yet: no payment asked')

    const pushedAt = Date.now()
    const pushed = await signedPush(pushSecret, { BTC: 97_000, STX: 1.25 })
    assert.equal(pushed.status, 202)
    assert.equal(pushed.body.snapshot.version, 1)
    assert.isAtLeast(pushed.body.snapshot.last_updated, pushedAt)
    assert.isAtMost(pushed.body.snapshot.last_updated, Date.now())

    const paid = await buyer.pay(client, FEED)
    paid.response.assertStatus(200)
    assert.deepEqual(paid.response.body().data, { BTC: 97_000, STX: 1.25 })
    assert.equal(paid.response.body().last_updated, pushed.body.snapshot.last_updated)
    assert.equal(paid.response.body().data_source, 'pushed by its provider (Hosted Mirror)')
    assert.notProperty(paid.response.body(), 'stale')

    const second = await signedPush(pushSecret, { BTC: 98_000, STX: 1.3 })
    assert.equal(second.status, 202)
    assert.equal(second.body.snapshot.version, 2)
    const repaid = await buyer.pay(client, FEED)
    assert.deepEqual(repaid.response.body().data, { BTC: 98_000, STX: 1.3 })

    const health = await client
      .get(`/providers/id/${providerId}/feeds/ticker`)
      .bearerToken(owner.token)
    assert.containsSubset(health.body().feed.source_health, {
      last_error: null,
      next_poll_at: null,
      snapshot: { version: 2, content_hash: second.body.snapshot.content_hash },
    })
    assert.isString(health.body().feed.source_health.last_success_at)
  })

  test('refused pushes change nothing: {case}')
    .with([
      { case: 'another secret', status: 401, code: 'push_signature_invalid' },
      { case: 'a tampered body', status: 401, code: 'push_signature_invalid' },
      { case: 'another provider header', status: 401, code: 'push_signature_invalid' },
      { case: 'a stale timestamp', status: 401, code: 'push_timestamp_stale' },
      { case: 'a timestamp from the future', status: 401, code: 'push_timestamp_stale' },
      { case: 'no signature', status: 401, code: 'push_signature_missing' },
      { case: 'a malformed signature', status: 401, code: 'push_signature_malformed' },
      { case: 'a replayed id', status: 409, code: 'push_replayed' },
      { case: 'text/plain', status: 415, code: 'unsupported_media_type' },
      { case: 'invalid JSON', status: 400, code: 'invalid_json' },
      { case: 'a JSON string', status: 422, code: 'not_a_json_document' },
      { case: 'an empty body', status: 422, code: 'not_a_json_document' },
      { case: 'an unpaired surrogate', status: 422, code: 'not_a_json_document' },
      { case: 'nesting 300 deep', status: 422, code: 'not_a_json_document' },
      { case: 'nesting 20 000 deep', status: 400, code: 'invalid_json' },
      { case: 'a NUL character', status: 400, code: 'invalid_characters' },
      { case: 'over 1 MB', status: 413, code: 'request_entity_too_large' },
    ])
    .run(async ({ client, assert }, { case: refusal, status, code }) => {
      const { pushSecret } = await registerPushFeed(client)
      const firstId = randomUUID()
      const first = await signedPush(pushSecret, { BTC: 97_000 }, { id: firstId })
      assert.equal(first.status, 202)
      const before = await currentSnapshot()
      const now = Math.floor(Date.now() / 1000)
      const other = `tbp_${'A'.repeat(43)}`

      const refused = await (async () => {
        switch (refusal) {
          case 'another secret':
            return signedPush(other, { BTC: 1 })
          case 'a tampered body':
            return push(INGEST, '{"BTC":2}', signed(pushSecret, '{"BTC":1}'))
          case 'another provider header':
            return signedPush(pushSecret, { BTC: 1 }, { provider: 'someone-else' })
          case 'a stale timestamp':
            return signedPush(pushSecret, { BTC: 1 }, { timestamp: now - 301 })
          case 'a timestamp from the future':
            return signedPush(pushSecret, { BTC: 1 }, { timestamp: now + 600 })
          case 'no signature':
            return push(INGEST, '{"BTC":1}', {})
          case 'a malformed signature':
            return push(INGEST, '{"BTC":1}', {
              ...signed(pushSecret, '{"BTC":1}'),
              'x-tollbooth-signature': 'sha256=abc',
            })
          case 'a replayed id':
            return signedPush(pushSecret, { BTC: 1 }, { id: firstId })
          case 'text/plain':
            return push(INGEST, 'BTC=1', signed(pushSecret, 'BTC=1'), 'text/plain')
          case 'invalid JSON':
            return signedPush(pushSecret, '{"BTC": 1,')
          case 'a JSON string':
            return signedPush(pushSecret, '"just text"')
          case 'an empty body':
            return signedPush(pushSecret, '')
          case 'an unpaired surrogate':
            return signedPush(pushSecret, '{"BTC": "\\ud800"}')
          case 'nesting 300 deep':
            return signedPush(pushSecret, `${'['.repeat(300)}${']'.repeat(300)}`)
          case 'nesting 20 000 deep':
            return signedPush(pushSecret, `${'['.repeat(20_000)}${']'.repeat(20_000)}`)
          case 'a NUL character':
            return signedPush(pushSecret, '{"BTC": "a\\u0000b"}')
          case 'over 1 MB':
            return signedPush(pushSecret, { blob: 'x'.repeat(1_100_000) })
          default:
            throw new Error(`no case ${refusal}`)
        }
      })()

      assert.equal(refused.status, status, JSON.stringify(refused.body))
      assert.equal(refused.body.error.code, code)
      assert.isString(refused.body.error.message)
      assert.deepEqual(await currentSnapshot(), before)
    })

  test('a document over the source type’s cap is refused with document_too_large', async ({
    client,
    assert,
  }) => {
    sources.fake('webhook_push', driverFactories.received({ via: 'push', maxBytes: 64 }))
    try {
      const { pushSecret } = await registerPushFeed(client)
      const refused = await signedPush(pushSecret, { padding: 'x'.repeat(64) })
      assert.equal(refused.status, 413)
      assert.equal(refused.body.error.code, 'document_too_large')
      assert.equal(
        refused.body.error.message,
        'The document is 78 bytes; this source type takes at most 64'
      )
      assert.isNull(await currentSnapshot())
    } finally {
      await sources.restore('webhook_push')
    }
  })

  test('pushes to an unknown feed, a feed that is not webhook_push, or a paused one are refused', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, pushSecret } = await registerPushFeed(client)
    const owned = `/providers/id/${providerId}`

    const unknown = await signedPush(pushSecret, { a: 1 }, { path: '/ingest/mirror-co/nope' })
    assert.equal(unknown.status, 404)
    assert.equal(unknown.body.error.code, 'feed_not_found')

    const upload = await client
      .post(`${owned}/feeds`)
      .bearerToken(owner.token)
      .json({
        slug: 'manual',
        display_name: 'Manual',
        price_stx: '0.005',
        source: { type: 'manual_upload' },
      })
    upload.assertStatus(201)
    assert.notProperty(upload.body(), 'push_secret')
    const notPush = await signedPush(pushSecret, { a: 1 }, { path: '/ingest/mirror-co/manual' })
    assert.equal(notPush.status, 409)
    assert.equal(notPush.body.error.code, 'not_a_push_feed')

    await client
      .patch(`${owned}/feeds/ticker/state`)
      .bearerToken(owner.token)
      .json({ active: false })
    const id = randomUUID()
    const paused = await signedPush(pushSecret, { a: 1 }, { id })
    assert.equal(paused.status, 409)
    assert.equal(paused.body.error.code, 'feed_paused')
    assert.isNull(await currentSnapshot())

    await client
      .patch(`${owned}/feeds/ticker/state`)
      .bearerToken(owner.token)
      .json({ active: true })
    const resent = await signedPush(pushSecret, { a: 1 }, { id })
    assert.equal(resent.status, 202, 'a refused push leaves its id unused')
  })

  test('rotation stops the old secret at once; mode switches keep the push secret', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, pushSecret } = await registerPushFeed(client)
    const owned = `/providers/id/${providerId}`

    const rotated = await client
      .post(`${owned}/feeds/ticker/push-secret/rotate`)
      .bearerToken(owner.token)
    rotated.assertStatus(200)
    const newSecret = rotated.body().push_secret
    assert.match(newSecret, /^tbp_[\w-]{43}$/)
    assert.notEqual(newSecret, pushSecret)
    const withOld = await signedPush(pushSecret, { v: 1 })
    assert.equal(withOld.status, 401)
    const withNew = await signedPush(newSecret, { v: 2 })
    assert.equal(withNew.status, 202)

    const bridge = await client
      .post(`${owned}/mode`)
      .bearerToken(owner.token)
      .json({
        integration_mode: 'partner_bridge',
        partner_endpoint: 'http://127.0.0.1:9',
        feeds: [{ slug: 'ticker', source_path: '/v1/ticker' }],
      })
    bridge.assertStatus(200)
    const whileBridged = await signedPush(newSecret, { v: 3 })
    assert.equal(whileBridged.status, 409)
    assert.equal(whileBridged.body.error.code, 'not_a_push_feed')
    const notPushRotation = await client
      .post(`${owned}/feeds/ticker/push-secret/rotate`)
      .bearerToken(owner.token)
    notPushRotation.assertStatus(409)

    const back = await client
      .post(`${owned}/mode`)
      .bearerToken(owner.token)
      .json({
        integration_mode: 'hosted_mirror',
        feeds: [{ slug: 'ticker', source: { type: 'webhook_push' } }],
      })
    back.assertStatus(200)
    assert.notProperty(back.body(), 'push_secrets', 'the feed kept its push secret')
    const afterSwitches = await signedPush(newSecret, { v: 4 })
    assert.equal(afterSwitches.status, 202)
    const paid = await buyer.pay(client, FEED)
    assert.deepEqual(paid.response.body().data, { v: 4 })
  })

  test('concurrent pushes are stored one after the other; one id is accepted once', async ({
    client,
    assert,
  }) => {
    const { pushSecret } = await registerPushFeed(client)

    const distinct = await Promise.all(
      Array.from({ length: 8 }, (_, index) => signedPush(pushSecret, { index }))
    )
    assert.deepEqual(
      distinct.map((answer) => answer.status),
      Array.from({ length: 8 }, () => 202)
    )
    assert.sameMembers(
      distinct.map((answer) => answer.body.snapshot.version),
      [1, 2, 3, 4, 5, 6, 7, 8]
    )

    const id = randomUUID()
    const body = JSON.stringify({ once: true })
    const headers = signed(pushSecret, body, { id })
    const same = await Promise.all([push(INGEST, body, headers), push(INGEST, body, headers)])
    assert.sameMembers(
      same.map((answer) => answer.status),
      [202, 409]
    )
  })

  test('a polled feed switched to webhook_push starts afresh: no old copy, no poll state', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, pushSecret } = await registerPushFeed(client)
    const owned = `/providers/id/${providerId}`
    const pushed = await signedPush(pushSecret, { from: 'push' })
    assert.equal(pushed.status, 202)
    const polled = await client
      .patch(`${owned}/feeds/ticker`)
      .bearerToken(owner.token)
      .json({ source: { type: 'codehost_raw', url: 'http://127.0.0.1:9/prices.json' } })
    polled.assertStatus(200)
    assert.equal(polled.body().first_poll.result, 'failed')
    assert.isString(polled.body().feed.source_health.next_poll_at)

    const back = await client
      .patch(`${owned}/feeds/ticker`)
      .bearerToken(owner.token)
      .json({ source: { type: 'webhook_push' } })

    back.assertStatus(200)
    assert.notProperty(back.body(), 'push_secret', 'the feed kept its push secret')
    assert.deepEqual(back.body().feed.source_health, {
      last_success_at: null,
      last_error: null,
      consecutive_failures: 0,
      next_poll_at: null,
      snapshot: null,
    })
    const unpaid = await client.get(FEED)
    unpaid.assertStatus(503)
    const again = await signedPush(pushSecret, { from: 'push again' })
    assert.equal(again.status, 202)
    assert.equal(again.body.snapshot.version, 1)
  })

  test('another wallet cannot read the feed', async ({ client, assert }) => {
    const { providerId } = await registerPushFeed(client)
    const stranger = await newOwner(client)
    const refused = await client
      .get(`/providers/id/${providerId}/feeds/ticker`)
      .bearerToken(stranger.token)
    refused.assertStatus(403)
    assert.equal(refused.body().error.code, 'not_owner')
  })

  test('another wallet cannot rotate the push secret', async ({ client, assert }) => {
    const { providerId } = await registerPushFeed(client)
    const stranger = await newOwner(client)
    const refused = await client
      .post(`/providers/id/${providerId}/feeds/ticker/push-secret/rotate`)
      .bearerToken(stranger.token)
    refused.assertStatus(403)
    assert.equal(refused.body().error.code, 'not_owner')
  })
})
