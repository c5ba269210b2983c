import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { errors as vineErrors } from '@vinejs/vine'
import { isCodedRule } from '#core/coded_rules'
import { FeedsConfig } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { FeedReader } from '#feeds/feed_reader'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { MirrorPoller } from '#feeds/mirror_poller'
import { E_SOURCE_UNAVAILABLE } from '#feeds/exceptions'
import { type FeedSourceDriver, type SourceProbe, SourceUnavailable } from '#feeds/source_driver'
import { UrlMirrorDriver } from '#feeds/drivers/url_mirror_driver'
import { MirrorFailure, type MirrorFailureKind } from '#feeds/mirror_failure'
import Feed from '#models/feed'
import type { OutboundClientOptions } from '#outbound/outbound_client'
import type { Resolver } from '#outbound/resolver'
import { ManualClock } from '#tests/support/clock'
import { outboundClient } from '#tests/support/outbound'
import { changeConfig } from '#tests/support/config'
import { OutboundConfig } from '#outbound/define_config'
import { createFeed } from '#tests/support/feeds'
import { inGlobalTransaction } from '#tests/support/database'

const feedsConfig = await app.container.make(FeedsConfig)

const LAST_MODIFIED = 'Wed, 21 Oct 2026 07:28:00 GMT'

/** A provider's file host on 127.0.0.1 and an ephemeral port, counting requests per path. */
async function startMirrorSource() {
  const hits = new Map<string, number>()
  const waiters = new Map<string, (() => void)[]>()
  const state = { failing: false, document: { version: 1 } as unknown, notModified: 0 }
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://source')
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1)
    for (const arrived of waiters.get(url.pathname)?.splice(0) ?? []) arrived()
    const json = (body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(200, { 'content-type': 'application/json', ...headers })
      response.end(JSON.stringify(body))
    }
    if (state.failing) {
      response.statusCode = 503
      return response.end('maintenance')
    }
    switch (url.pathname) {
      case '/live.json': {
        const body = JSON.stringify(state.document)
        const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`
        if (request.headers['if-none-match'] === etag) {
          state.notModified++
          response.writeHead(304, { etag })
          return response.end()
        }
        response.writeHead(200, { 'content-type': 'application/json', etag })
        return response.end(body)
      }
      case '/prices.json':
        return json(
          { prices: [{ symbol: 'BTC', usd: 97_000 }], accept: request.headers.accept ?? null },
          { 'last-modified': LAST_MODIFIED }
        )
      case '/list.json':
        // A code host serving raw files as text/plain, with a byte-order mark and a bad date.
        response.writeHead(200, { 'content-type': 'text/plain', 'last-modified': 'yesterday' })
        return response.end('\uFEFF[1, 2, 3]')
      case '/error.json':
        response.statusCode = 500
        return response.end('{"error": "internal"}')
      case '/page.html':
        response.writeHead(200, { 'content-type': 'text/html' })
        return response.end('<!doctype html><html><body>Sign in to continue</body></html>')
      case '/long-type.html':
        response.writeHead(200, { 'content-type': `text/html; ${'x'.repeat(5_000)}` })
        return response.end('<p>not json</p>')
      case '/scalar.json':
        return json(42)
      case '/null.json':
        return json(null)
      case '/big.json':
        return json(Array.from({ length: 5_000 }, (_, i) => i))
      case '/hang.json':
        return
      case '/moved.json':
        response.writeHead(302, { location: url.searchParams.get('to')! })
        return response.end()
      default:
        response.statusCode = 404
        return response.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    hits: (path: string) => hits.get(path) ?? 0,
    /** Resolves once `path` has been asked for: at once if it was. */
    asked: (path: string) =>
      new Promise<void>((resolve) => {
        if (hits.has(path)) return resolve()
        waiters.set(path, [...(waiters.get(path) ?? []), resolve])
      }),
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

type MirrorSource = Awaited<ReturnType<typeof startMirrorSource>>

/** codehost.test and objects.test are the test server; any other name does not resolve. */
const testDns: Resolver = async (hostname) => {
  if (hostname === 'codehost.test' || hostname === 'objects.test') {
    return [{ address: '127.0.0.1', family: 4 }]
  }
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
}

/** The driver, plus one unconditional request to its source as a payload (what poll stores). */
class ProbedDriver extends UrlMirrorDriver {
  async downloadPayload(feed: Feed) {
    const answer = await this.download(feed)
    if (answer.notModified) throw new Error('an unconditional request answered 304')
    return answer.payload
  }
}

function driver(
  options: {
    timeoutMs?: number
    maxBytes?: number
    clock?: ManualClock
    config?: FeedsConfig
  } = {},
  client: Partial<OutboundClientOptions> = {}
) {
  const clock = options.clock ?? new ManualClock()
  return new ProbedDriver({
    name: 'codehost_raw',
    snapshots: new FeedSnapshots(db, clock, options.config ?? feedsConfig),
    outbound: outboundClient({
      allowPrivateTargets: true,
      httpsOnly: false,
      resolve: testDns,
      clock,
      ...client,
    }),
    timeoutMs: options.timeoutMs ?? 30_000,
    maxBytes: options.maxBytes ?? 10_000,
    now: () => clock.now(),
  })
}

function feedAt(url: string, pollIntervalSeconds?: number) {
  const feed = new Feed()
  feed.slug = 'mirrored-prices'
  feed.sourceType = 'codehost_raw'
  feed.sourceSettings = { url, poll_interval_seconds: pollIntervalSeconds }
  return feed
}

/** The failure a fetch ends with (the test fails when it succeeds). */
/** A request for /hang.json is never answered: once it arrives, the clock passes the driver's 30 s. */
async function timeOutHang(source: MirrorSource, clock: ManualClock, path: string) {
  if (path !== '/hang.json') return
  await source.asked(path)
  clock.advance(30_000)
}

async function failureOf(promise: Promise<unknown>): Promise<MirrorFailure> {
  try {
    await promise
  } catch (error) {
    if (error instanceof MirrorFailure) return error
    throw error
  }
  throw new Error('expected a MirrorFailure, the fetch succeeded')
}

/** The rules a settings validation failed with, by field. */
async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
    return (error.messages as { field: string; rule: string; message: string }[]).map(
      ({ field, rule, message }) => ({ field, rule, message })
    )
  }
  throw new Error('expected a validation error, the settings were accepted')
}

test.group('URL mirror settings', () => {
  test('an https URL is accepted and the poll interval defaults to 300 s', async ({ assert }) => {
    const settings = await driver().validateSettings({
      url: 'https://raw.githubusercontent.com/acme/data/main/prices.json',
      extra: 'dropped',
    })
    assert.deepEqual(settings, {
      url: 'https://raw.githubusercontent.com/acme/data/main/prices.json',
      poll_interval_seconds: 300,
    })
  })

  test('poll_interval_seconds {$self} is kept')
    .with([60, 300, 900, 3600])
    .run(async ({ assert }, interval) => {
      const settings = await driver().validateSettings({
        url: 'https://bucket.s3.eu-west-1.amazonaws.com/feeds/prices.json?X-Amz-Signature=abc',
        poll_interval_seconds: interval,
      })
      assert.equal(settings.poll_interval_seconds, interval)
    })

  test('poll_interval_seconds {$self} is refused')
    .with([0, 30, 120, 86_400, '300', 'hourly'])
    .run(async ({ assert }, interval) => {
      const problems = await refusalOf(
        driver().validateSettings({
          url: 'https://example.com/data.json',
          poll_interval_seconds: interval,
        })
      )
      assert.deepEqual(
        problems.map(({ field }) => field),
        ['poll_interval_seconds']
      )
    })

  test('refuses {$self} with invalid_source_url')
    .with([
      'https://user:secret@example.com/data.json',
      'https://token@example.com/data.json',
      'https://example.com/data.json#latest',
      'https://example.com/data.json#',
      'ftp://example.com/data.json',
      'file:///etc/passwd',
      'example.com/data.json',
      'https://example.com/my data.json',
    ])
    .run(async ({ assert }, url) => {
      const problems = await refusalOf(driver().validateSettings({ url }))
      assert.deepEqual(
        problems.map(({ field, rule }) => ({ field, rule })),
        [{ field: 'url', rule: 'invalid_source_url' }]
      )
      assert.notInclude(problems[0].message, 'secret')
    })

  test('invalid_source_url is a coded rule: alone, it is the 422 code', ({ assert }) => {
    assert.isTrue(isCodedRule('invalid_source_url'))
  })

  test('a missing URL, or one longer than 2048 characters, is refused', async ({ assert }) => {
    const missing = await refusalOf(driver().validateSettings({ poll_interval_seconds: 60 }))
    assert.deepEqual(missing[0].field, 'url')
    const long = `https://example.com/${'a'.repeat(2_030)}.json`
    assert.isAbove(long.length, 2048)
    const tooLong = await refusalOf(driver().validateSettings({ url: long }))
    assert.deepEqual(
      tooLong.map(({ field, rule }) => ({ field, rule })),
      [{ field: 'url', rule: 'maxLength' }]
    )
  })

  test('plain http is accepted only while the outbound client accepts it', async ({ assert }) => {
    const outboundConfig = await app.container.make(OutboundConfig)
    const restoreRules = changeConfig(outboundConfig, { httpsOnly: false })
    try {
      const accepted = await driver().validateSettings({ url: 'http://127.0.0.1:9/data.json' })
      assert.equal(accepted.url, 'http://127.0.0.1:9/data.json')

      changeConfig(outboundConfig, { httpsOnly: true })
      const problems = await refusalOf(
        driver().validateSettings({ url: 'http://example.com/data.json' })
      )
      assert.deepEqual(
        problems.map(({ field, rule, message }) => ({ field, rule, message })),
        [{ field: 'url', rule: 'invalid_source_url', message: 'url must be an https URL' }]
      )
      await driver().validateSettings({ url: 'https://example.com/data.json' })
    } finally {
      restoreRules()
    }
  })
})

test.group('URL mirror source requests (what a poll reads)', (group) => {
  let source: MirrorSource

  group.each.setup(async () => {
    source = await startMirrorSource()
    return () => source.close()
  })

  test('serves the JSON document, its Last-Modified as last_updated, and names the host', async ({
    assert,
  }) => {
    const url = `http://codehost.test:${source.port}/prices.json`
    const payload = await driver().downloadPayload(feedAt(url))

    assert.deepEqual(payload, {
      data: { prices: [{ symbol: 'BTC', usd: 97_000 }], accept: 'application/json' },
      last_updated: Date.parse(LAST_MODIFIED),
      data_source: `codehost.test:${source.port} (Hosted Mirror)`,
    })
  })

  test('an array served as text/plain is a document; no valid Last-Modified → now', async ({
    assert,
  }) => {
    const clock = new ManualClock(1_800_000_000_000)
    const payload = await driver({ clock }).downloadPayload(feedAt(`${source.url}/list.json`))

    assert.deepEqual(payload.data, [1, 2, 3])
    assert.equal(payload.last_updated, 1_800_000_000_000)
  })

  test('a Last-Modified in the future is not believed past now', async ({ assert }) => {
    const clock = new ManualClock(Date.parse(LAST_MODIFIED) - 60_000)
    const payload = await driver({ clock }).downloadPayload(feedAt(`${source.url}/prices.json`))
    assert.equal(payload.last_updated, clock.now())
  })

  test('{path} → MirrorFailure {kind}')
    .with([
      { path: '/error.json', kind: 'http_status', message: 'answered HTTP 500' },
      { path: '/missing.json', kind: 'http_status', message: 'answered HTTP 404' },
      { path: '/page.html', kind: 'bad_json', message: 'did not answer JSON' },
      { path: '/scalar.json', kind: 'not_a_document', message: 'a JSON number' },
      { path: '/null.json', kind: 'not_a_document', message: 'a JSON null' },
      { path: '/big.json', kind: 'too_large', message: 'more than 10000 bytes' },
      { path: '/hang.json', kind: 'timeout', message: 'did not answer in time' },
    ] satisfies { path: string; kind: MirrorFailureKind; message: string }[])
    .run(async ({ assert }, { path, kind, message }) => {
      const clock = new ManualClock()
      const pending = failureOf(driver({ clock }).downloadPayload(feedAt(`${source.url}${path}`)))
      await timeOutHang(source, clock, path)
      const failure = await pending

      assert.instanceOf(failure, SourceUnavailable)
      assert.equal(failure.kind, kind)
      assert.include(failure.message, `127.0.0.1:${source.port}`)
      assert.include(failure.message, message)
    })

  test("a source's long content-type is quoted cut, not whole", async ({ assert }) => {
    const failure = await failureOf(
      driver().downloadPayload(feedAt(`${source.url}/long-type.html`))
    )

    assert.equal(failure.kind, 'bad_json')
    assert.include(
      failure.message,
      `content-type: text/html; ${'x'.repeat(89)}… (cut, 5011 characters)`
    )
    assert.isBelow(failure.message.length, 200)
  })

  test('the failure names the host, never the signed query string', async ({ assert }) => {
    const url = `http://objects.test:${source.port}/error.json?X-Amz-Signature=s3cr3t-token`
    const failure = await failureOf(driver().downloadPayload(feedAt(url)))

    assert.equal(failure.message, `objects.test:${source.port} answered HTTP 500`)
    assert.notInclude(failure.message, 's3cr3t')
    assert.notInclude(failure.message, 'error.json')
  })

  test('a redirect is followed and the data is named after where it came from', async ({
    assert,
  }) => {
    const target = `http://objects.test:${source.port}/prices.json`
    const url = `http://codehost.test:${source.port}/moved.json?to=${encodeURIComponent(target)}`
    const payload = await driver().downloadPayload(feedAt(url))

    assert.deepEqual((payload.data as { prices: unknown[] }).prices, [
      { symbol: 'BTC', usd: 97_000 },
    ])
    assert.equal(payload.data_source, `objects.test:${source.port} (Hosted Mirror)`)
    assert.equal(source.hits('/moved.json'), 1)
    assert.equal(source.hits('/prices.json'), 1)

    const broken = `http://objects.test:${source.port}/error.json`
    const failure = await failureOf(
      driver().downloadPayload(
        feedAt(`http://codehost.test:${source.port}/moved.json?to=${encodeURIComponent(broken)}`)
      )
    )
    assert.equal(failure.message, `objects.test:${source.port} answered HTTP 500`)
  })

  test('a redirect to a private address is refused at the hop', async ({ assert }) => {
    const url = `http://codehost.test:${source.port}/moved.json?to=${encodeURIComponent(
      'http://169.254.169.254/latest/meta-data/'
    )}`
    const failure = await failureOf(
      driver({}, { isAllowedAddress: (address) => address === '127.0.0.1' }).downloadPayload(
        feedAt(url)
      )
    )

    assert.equal(failure.kind, 'refused_target')
    assert.include(failure.message, `after a redirect from codehost.test:${source.port}`)
  })

  test('a target the SSRF guard refuses is refused_target, without a request', async ({
    assert,
  }) => {
    const guarded = driver({}, { allowPrivateTargets: false, httpsOnly: true })
    const metadata = await failureOf(
      guarded.downloadPayload(feedAt('https://169.254.169.254/latest/meta-data/'))
    )
    const plainHttp = await failureOf(guarded.downloadPayload(feedAt(`${source.url}/prices.json`)))

    assert.equal(metadata.kind, 'refused_target')
    assert.equal(plainHttp.kind, 'refused_target')
    assert.equal(source.hits('/prices.json'), 0)
  })

  test('a host that does not resolve is unreachable', async ({ assert }) => {
    const failure = await failureOf(
      driver().downloadPayload(feedAt('http://nowhere.test/data.json'))
    )
    assert.equal(failure.kind, 'unreachable')
    assert.equal(failure.message, 'nowhere.test is unreachable')
  })

  test('the source test tells ok from each failure kind, and stores nothing')
    .with([
      { url: '/prices.json', result: 'ok', status: 200 },
      { url: '/page.html', result: 'not_json', status: 200 },
      { url: '/scalar.json', result: 'not_json', status: 200 },
      { url: '/big.json', result: 'too_large', status: 200 },
      { url: '/error.json', result: 'http_error', status: 500 },
      { url: '/hang.json', result: 'timeout', status: null },
      { url: 'http://nowhere.test/data.json', result: 'unreachable', status: null },
      {
        url: `/moved.json?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
        result: 'refused_target',
        status: null,
      },
    ] satisfies { url: string; result: SourceProbe['result']; status: number | null }[])
    .run(async ({ assert, cleanup }, { url, result, status }) => {
      const clock = new ManualClock()
      const guarded = driver({ clock }, { isAllowedAddress: (address) => address === '127.0.0.1' })
      const feed = await createFeed({
        slug: `probe-${result.replace('_', '-')}-${url.length}`,
        sourceType: 'codehost_raw',
        sourceSettings: { url: url.startsWith('/') ? `${source.url}${url}` : url },
      })

      cleanup(() => feed.delete())
      const pending = guarded.probe(feed)
      await timeOutHang(source, clock, url)
      const probe = await pending

      assert.equal(probe.result, result, probe.message)
      assert.equal(probe.upstream_status, status)
      assert.isAtLeast(probe.latency_ms, 0)
      if (result === 'ok') {
        assert.equal(probe.message, `127.0.0.1:${source.port} answered a JSON document`)
        assert.isAbove(probe.size_bytes!, 0)
      }
      assert.isNull(await new FeedSnapshots(db, new ManualClock(), feedsConfig).current(feed.id))
    })

  test("no per-process cache; the poll interval is the feed's (300 s when unset)", ({ assert }) => {
    const mirror: FeedSourceDriver = driver()
    assert.isNull(mirror.cacheTtlMs(feedAt('https://example.com/a.json', 60)))
    assert.equal(mirror.pollIntervalMs!(feedAt('https://example.com/a.json', 60)), 60_000)
    assert.equal(mirror.pollIntervalMs!(feedAt('https://example.com/a.json', 3600)), 3_600_000)
    assert.equal(mirror.pollIntervalMs!(feedAt('https://example.com/a.json')), 300_000)
    assert.isUndefined(mirror.validateQuery)
  })
})

async function dataOf(mirror: UrlMirrorDriver, feed: Feed) {
  const served = await mirror.fetch(feed)
  return served.data
}

test.group('URL mirror snapshots (poll, then serve)', (group) => {
  let source: MirrorSource
  let clock: ManualClock

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    source = await startMirrorSource()
    clock = new ManualClock()
    return () => source.close()
  })

  async function mirrorFeed(pollIntervalSeconds = 60) {
    return createFeed({
      slug: 'mirrored-prices',
      sourceType: 'codehost_raw',
      sourceSettings: {
        url: `${source.url}/live.json`,
        poll_interval_seconds: pollIntervalSeconds,
      },
    })
  }

  test('both URL sources are registered, as one driver class', async ({ assert }) => {
    assert.includeMembers(sources.names(), ['codehost_raw', 'objectstore_url'])
    const codehost = await sources.use('codehost_raw')
    const objectstore = await sources.use('objectstore_url')
    assert.instanceOf(codehost, UrlMirrorDriver)
    assert.instanceOf(objectstore, UrlMirrorDriver)
    assert.equal(codehost.name, 'codehost_raw')
    assert.equal(objectstore.name, 'objectstore_url')
  })

  test('no snapshot yet: the buyer gets source_unavailable, and the source is not asked', async ({
    assert,
  }) => {
    const feed = await mirrorFeed()
    const failure = await failureOf(driver({ clock }).fetch(feed))
    assert.equal(failure.kind, 'no_snapshot')
    assert.equal(source.hits('/live.json'), 0)
  })

  test('a poll stores the document; fetch serves it without a request; a change makes a new version', async ({
    assert,
  }) => {
    const feed = await mirrorFeed()
    const mirror = driver({ clock })
    assert.deepEqual(await mirror.poll(feed), { outcome: 'updated' })
    const served = await mirror.fetch(feed)
    assert.deepEqual(served, {
      data: { version: 1 },
      last_updated: clock.now(),
      data_source: `127.0.0.1:${source.port} (Hosted Mirror)`,
    })
    assert.equal(source.hits('/live.json'), 1)

    source.state.document = { version: 2 }
    clock.advance(60_000)
    assert.deepEqual(await mirror.poll(feed), { outcome: 'updated' })
    const changed = await mirror.fetch(feed)
    assert.deepEqual(changed.data, { version: 2 })
    assert.equal(changed.last_updated, clock.now())
    const versions = await new FeedSnapshots(db, clock, feedsConfig).versions(feed.id)
    assert.deepEqual(
      versions.map((v) => v.version),
      [2, 1]
    )
    assert.match(versions[0].contentHash, /^sha256:[0-9a-f]{64}$/)
    assert.equal(versions[0].sizeBytes, JSON.stringify({ version: 2 }).length)
  })

  test('a 304 keeps the snapshot (the poll sent If-None-Match)', async ({ assert }) => {
    const feed = await mirrorFeed()
    const mirror = driver({ clock })
    await mirror.poll(feed)
    clock.advance(60_000)
    assert.deepEqual(await mirror.poll(feed), { outcome: 'unchanged' })
    assert.equal(source.state.notModified, 1)
    const versions = await new FeedSnapshots(db, clock, feedsConfig).versions(feed.id)
    assert.lengthOf(versions, 1)
    assert.equal(versions[0].fetchedAt.getTime(), clock.now())
  })

  test('only the last N versions are kept', async ({ assert }) => {
    const feed = await mirrorFeed()
    const config = new FeedsConfig({ ...feedsConfig, snapshots: { keep: 3 } })
    const mirror = driver({ clock, config })
    for (let version = 1; version <= 5; version++) {
      source.state.document = { version }
      await mirror.poll(feed)
    }
    const versions = await new FeedSnapshots(db, clock, feedsConfig).versions(feed.id)
    assert.deepEqual(
      versions.map((v) => v.version),
      [5, 4, 3]
    )
  })

  test('a failing poll keeps the last good snapshot; past 3 × the interval it is served stale', async ({
    assert,
  }) => {
    const feed = await mirrorFeed(60)
    const mirror = driver({ clock })
    await mirror.poll(feed)
    source.state.failing = true
    clock.advance(60_000)
    const failure = await failureOf(mirror.poll(feed))
    assert.equal(failure.kind, 'http_status')
    assert.deepEqual(await dataOf(mirror, feed), { version: 1 })
    assert.notProperty(await mirror.fetch(feed), 'stale')

    clock.advance(120_001)
    const old = await mirror.fetch(feed)
    assert.isTrue(old.stale)
  })

  test('HTML or a JSON scalar never replaces the snapshot', async ({ assert }) => {
    const feed = await mirrorFeed()
    const mirror = driver({ clock })
    await mirror.poll(feed)
    for (const path of ['/page.html', '/scalar.json']) {
      feed.sourceSettings = { url: `${source.url}${path}`, poll_interval_seconds: 60 }
      await failureOf(mirror.poll(feed))
    }
    assert.deepEqual(await dataOf(mirror, feed), { version: 1 })
  })

  test('the buyer path through FeedReader serves the snapshot and counts no source call', async ({
    assert,
  }) => {
    const feed = await mirrorFeed()
    const reader = await app.container.make(FeedReader)
    await assert.rejects(() => reader.read(feed, {}), E_SOURCE_UNAVAILABLE)
    const poller = await app.container.make(MirrorPoller)
    await poller.pollOne(feed)
    const served = await reader.read(feed, {})
    assert.deepEqual(served.data, { version: 1 })
    const stats = await db.from('feed_stats').where('feed_id', feed.id).firstOrFail()
    assert.equal(Number(stats.source_calls), 1)
    assert.equal(Number(stats.source_failures), 0)
    assert.equal(source.hits('/live.json'), 1)
  })
})

test.group('mirrors:poll', (group) => {
  let source: MirrorSource
  const created: string[] = []

  group.each.setup(async () => {
    source = await startMirrorSource()
    await sources.use('codehost_raw')
    return async () => {
      await source.close()
      if (created.length > 0) {
        await db.from('feed_daily_stats').whereIn('feed_id', created).delete()
        await db.from('feed_stats').whereIn('feed_id', created).delete()
        await db.from('feeds').whereIn('id', created).delete()
        created.length = 0
      }
    }
  })

  /** Committed (no global transaction), so two pollers really race on their own connections. */
  async function mirrorFeed(path = '/live.json') {
    const feed = await createFeed({
      slug: `mirrored-${created.length}-${Date.now()}`,
      sourceType: 'codehost_raw',
      sourceSettings: { url: `${source.url}${path}`, poll_interval_seconds: 60 },
    })
    created.push(feed.id)
    return feed
  }

  async function makeDue(feedId: string) {
    await db
      .from('feed_source_states')
      .where('feed_id', feedId)
      .update({ next_poll_at: new Date(Date.now() - 1_000) })
  }

  test('a new feed is due at once; two pollers in parallel poll it once', async ({ assert }) => {
    const feed = await mirrorFeed()
    const pollers = [await app.container.make(MirrorPoller), await app.container.make(MirrorPoller)]
    const [first, second] = await Promise.all(pollers.map((poller) => poller.run()))
    assert.equal(first.polled + second.polled, 1)
    assert.equal(source.hits('/live.json'), 1)
    const state = await new FeedSnapshots(db, new ManualClock(), feedsConfig).state(feed.id)
    assert.isAbove(state!.nextPollAt!.getTime(), Date.now() + 50_000)
    assert.isNotNull(state!.lastSuccessAt)

    // Not due again within the interval.
    const again = await pollers[0].run()
    assert.equal(again.polled, 0)
  })

  test('a change is picked up, a failure keeps the last good snapshot and backs off', async ({
    assert,
  }) => {
    const feed = await mirrorFeed()
    const poller = await app.container.make(MirrorPoller)
    await poller.run()
    source.state.document = { version: 2 }
    await makeDue(feed.id)
    assert.containsSubset(await poller.run(), { polled: 1, updated: 1 })
    const snapshots = new FeedSnapshots(db, new ManualClock(), feedsConfig)
    assert.deepEqual((await snapshots.current(feed.id))!.data, { version: 2 })

    source.state.failing = true
    await makeDue(feed.id)
    assert.containsSubset(await poller.run(), { polled: 1, failed: 1 })
    assert.deepEqual((await snapshots.current(feed.id))!.data, { version: 2 })
    const state = (await snapshots.state(feed.id))!
    assert.equal(state.lastError, `127.0.0.1:${source.port} answered HTTP 503`)
    assert.equal(state.lastErrorKind, 'http_status')
    assert.equal(state.failures, 1)

    await makeDue(feed.id)
    await poller.run()
    const backedOff = (await snapshots.state(feed.id))!
    assert.equal(backedOff.failures, 2)
    assert.isAbove(backedOff.nextPollAt!.getTime(), Date.now() + 110_000)

    const stats = await db.from('feed_stats').where('feed_id', feed.id).firstOrFail()
    assert.equal(Number(stats.source_calls), 4)
    assert.equal(Number(stats.source_failures), 2)
  })
})
