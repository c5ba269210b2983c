import { test } from '@japa/runner'
import { errors as vineErrors } from '@vinejs/vine'
import app from '@adonisjs/core/services/app'
import { Clock } from '#core/clock'
import { FeedCache } from '#feeds/feed_cache'
import { FeedReader } from '#feeds/feed_reader'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { FeedStats } from '#feeds/feed_stats'
import { sources } from '#feeds/define_config'
import { E_SOURCE_UNAVAILABLE } from '#feeds/exceptions'
import { UPSTREAM_NAMES, type UpstreamName } from '#feeds/builtin/upstreams'
import { UpstreamSimulator } from '@tollbooth/upstream-simulator'
import { feedDeclaration } from '#feeds/feed_declaration'
import { matchesSchema } from '#tests/support/json_schema'
import Feed from '#models/feed'
import { paidBody } from '#payments/paid_body'
import { TEST_SETTINGS } from '#tests/support/upstreams'
import { inGlobalTransaction } from '#tests/support/database'

const QUERIES: Record<string, Record<string, string>> = {
  'token-intel': { address: '0x6982508145454Ce325dDbE47a25d4ec3d2311933', chain: 'ethereum' },
  'wallet-profiler': { address: TEST_SETTINGS.smartMoneyWallets[0].address, chain: 'ethereum' },
}

/**
 * The whole built-in path as the app assembles it — seeded feed rows, the
 * builtin driver from its config factory, every adapter, the reader — over
 * the upstream simulator on a random port.
 */
test.group('The sixteen built-in feeds', (group) => {
  let simulator: UpstreamSimulator
  let reader: FeedReader

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    simulator = await new UpstreamSimulator({ hangMs: 1_000 }).listen()
    const baseUrls = Object.fromEntries(
      UPSTREAM_NAMES.map((name) => [name, `${simulator.url}/${name}`])
    )
    const manager = new FeedSourceManager(
      {
        sources: {
          builtin: sources.builtin({
            baseUrls: baseUrls as Record<UpstreamName, string>,
            simulated: true,
            timeoutMs: 5_000,
            maxBytes: 5_000_000,
            settings: TEST_SETTINGS,
          }),
        },
      },
      app
    )
    const clock = new Clock()
    reader = new FeedReader(
      manager,
      new FeedCache(clock, { maxEntries: 100 }),
      await app.container.make(FeedStats),
      clock
    )
    return async () => {
      await manager.close()
      await simulator.close()
    }
  })

  test('each one serves data from its upstreams, named truthfully', async ({ assert }) => {
    const feeds = await Feed.query().where('source_type', 'builtin').whereNull('provider_id')
    assert.lengthOf(feeds, 16)

    for (const feed of feeds) {
      const query = await reader.validateQuery(feed, QUERIES[feed.slug] ?? {})
      const payload = await reader.read(feed, query)

      assert.isObject(payload.data, feed.slug)
      assert.isAbove(Object.keys(payload.data as object).length, 0, feed.slug)
      assert.match(payload.data_source, /\(local upstream simulator\)$/, feed.slug)
      assert.isUndefined(payload.stale, feed.slug)
    }
  })

  test('each one answers what it declares: its paid body and its example match its schema', async ({
    assert,
  }) => {
    const feeds = await Feed.query().where('source_type', 'builtin').whereNull('provider_id')
    assert.lengthOf(feeds, 16)

    for (const feed of feeds) {
      const { output, query } = feedDeclaration(feed)
      assert.exists(output, feed.slug)
      const served = await reader.read(
        feed,
        await reader.validateQuery(feed, QUERIES[feed.slug] ?? {})
      )
      // As the buyer receives it: serialised, then parsed.
      const body = JSON.parse(JSON.stringify(paidBody(feed.priceMicrostx, served)))

      assert.deepEqual(
        matchesSchema(output!.schema, body),
        { valid: true, errors: null },
        feed.slug
      )
      assert.deepEqual(
        matchesSchema(output!.schema, output!.example),
        { valid: true, errors: null },
        `${feed.slug} example`
      )
      assert.sameMembers(
        query.map((parameter) => parameter.name),
        Object.keys(QUERIES[feed.slug] ?? {}),
        feed.slug
      )
    }
  })

  test('query parameters of token-intel and wallet-profiler are refused when malformed', async ({
    assert,
  }) => {
    const tokenIntel = await Feed.findByOrFail('slug', 'token-intel')
    const walletProfiler = await Feed.findByOrFail('slug', 'wallet-profiler')

    await assert.rejects(
      () => reader.validateQuery(tokenIntel, { address: 'not-an-address' }),
      vineErrors.E_VALIDATION_ERROR
    )
    await assert.rejects(
      () =>
        reader.validateQuery(tokenIntel, {
          address: QUERIES['token-intel'].address,
          chain: 'dogechain',
        }),
      vineErrors.E_VALIDATION_ERROR
    )
    await assert.rejects(
      () => reader.validateQuery(walletProfiler, {}),
      vineErrors.E_VALIDATION_ERROR
    )
  })

  test('a failing upstream makes the feed unavailable and counts against its uptime', async ({
    assert,
  }) => {
    const feed = await Feed.findByOrFail('slug', 'gas-prediction')
    simulator.failNext('mempool', 'status_503', 5)

    await assert.rejects(() => reader.read(feed, {}), E_SOURCE_UNAVAILABLE)

    const db = await app.container.make('lucid.db')
    const stats = await db.from('feed_stats').where('feed_id', feed.id).first()
    assert.equal(Number(stats.source_failures), 1)
  })
})
