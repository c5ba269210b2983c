import { test } from '@japa/runner'
import vine from '@vinejs/vine'
import { UpstreamSimulator, defineFixture } from '@tollbooth/upstream-simulator'
import { BuiltinSourceDriver } from '#feeds/drivers/builtin_driver'
import { defineAdapter } from '#feeds/builtin/adapter'
import type { BuiltinFeedDefinition } from '#feeds/builtin/catalog'
import { FetchUpstreamHttp, UpstreamFailure } from '#feeds/builtin/upstream_http'
import { UPSTREAM_NAMES, type UpstreamName } from '#feeds/builtin/upstreams'
import Feed from '#models/feed'
import type { Clock } from '#core/clock'
import { ManualClock } from '#tests/support/clock'
import { TEST_SETTINGS } from '#tests/support/upstreams'

/** A one-route upstream and a one-feed catalog, to exercise the driver's plumbing alone. */
const fixture = defineFixture({
  upstream: 'mempool',
  docs: 'https://mempool.space/docs/api/rest#get-recommended-fees',
  routes: [
    {
      method: 'GET',
      path: '/api/v1/fees/recommended',
      handle: (_request, clock) => ({
        fastestFee: 10 + Math.floor(clock.random('fee') * 5),
        hourFee: 3,
      }),
    },
    { method: 'GET', path: '/huge', handle: () => ({ blob: 'x'.repeat(10_000) }) },
  ],
})

const feesSchema = vine.create(vine.object({ fastestFee: vine.number(), hourFee: vine.number() }))
const catalog: BuiltinFeedDefinition[] = [
  {
    id: 'fee-probe',
    displayName: 'Fee probe',
    priceMicrostx: 1_000n,
    category: 'test',
    description: 'test',
    updateFrequency: '1 minute',
    cacheTtlSeconds: 60,
    declaration: { data: { type: 'object' }, example: {} },
    adapter: async () => ({
      default: defineAdapter({
        upstreams: ['mempool'],
        async fetch({ http }) {
          const fees = await http.getJson('mempool', '/api/v1/fees/recommended', feesSchema)
          return { spread: fees.fastestFee - fees.hourFee }
        },
      }),
    }),
  },
]

test.group('The built-in driver against a misbehaving upstream', (group) => {
  let simulator: UpstreamSimulator
  group.each.setup(async () => {
    simulator = await new UpstreamSimulator({
      fixtures: [fixture],
      now: () => 1_795_300_000_000,
      hangMs: 60_000,
    }).listen()
    return () => simulator.close()
  })

  function driver(clock: Clock = new ManualClock()) {
    const baseUrls = Object.fromEntries(
      UPSTREAM_NAMES.map((name) => [name, `${simulator.url}/${name}`])
    )
    return new BuiltinSourceDriver({
      http: new FetchUpstreamHttp({
        baseUrls: baseUrls as Record<UpstreamName, string>,
        timeoutMs: 30_000,
        maxBytes: 5_000,
        clock,
      }),
      settings: TEST_SETTINGS,
      simulated: true,
      now: () => 42,
      catalog,
    })
  }
  const feed = new Feed().merge({ slug: 'fee-probe', sourceType: 'builtin' })

  test('computes the content and names the upstream it came from', async ({ assert }) => {
    const payload = await driver().fetch(feed, { query: {} })

    assert.deepEqual(payload.last_updated, 42)
    assert.equal(payload.data_source, 'mempool.space (local upstream simulator)')
    assert.isAtLeast((payload.data as { spread: number }).spread, 7)
    assert.equal(driver().cacheTtlMs(feed), 60_000)
  })

  for (const [fault, kind] of [
    ['status_503', 'http_status'],
    ['status_500', 'http_status'],
    ['timeout', 'timeout'],
    ['malformed_json', 'malformed_json'],
    ['schema_drift', 'schema_drift'],
  ] as const) {
    test(`an upstream ${fault.replace('_', ' ')} is an unavailable source (${kind})`, async ({
      assert,
    }) => {
      simulator.failNext('mempool', fault)
      const clock = new ManualClock()

      const pending = driver(clock)
        .fetch(feed, { query: {} })
        .catch((caught: unknown) => caught)
      if (fault === 'timeout') {
        await simulator.held()
        clock.advance(30_000)
      }
      const error = await pending

      assert.instanceOf(error, UpstreamFailure)
      assert.equal((error as UpstreamFailure).kind, kind)
    })
  }

  test('an answer over the size cap is refused', async ({ assert }) => {
    const error = await new FetchUpstreamHttp({
      baseUrls: { mempool: `${simulator.url}/mempool` } as Record<UpstreamName, string>,
      timeoutMs: 1_000,
      maxBytes: 1_000,
      clock: new ManualClock(),
    })
      .getJson('mempool', '/huge', vine.create(vine.object({})))
      .catch((caught: unknown) => caught)

    assert.equal((error as UpstreamFailure).kind, 'too_large')
  })

  test('a feed without query parameters drops unknown ones', async ({ assert }) => {
    assert.deepEqual(await driver().validateQuery(feed, { utm_source: 'x' }), {})
  })
})
