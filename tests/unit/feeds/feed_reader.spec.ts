import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import sources from '#feeds/services/main'
import { FeedCache } from '#feeds/feed_cache'
import { FeedReader } from '#feeds/feed_reader'
import { FeedStats } from '#feeds/feed_stats'
import { E_SOURCE_UNAVAILABLE } from '#feeds/exceptions'
import { type FeedPayload, type FeedSourceDriver, SourceUnavailable } from '#feeds/source_driver'
import { type ManualClock, useManualClock } from '#tests/support/clock'
import { createFeed } from '#tests/support/feeds'
import { inGlobalTransaction } from '#tests/support/database'

/** A source whose next answers the test scripts: a value, a failure or a bug. */
class ScriptedDriver implements FeedSourceDriver {
  readonly name = 'scripted'
  calls = 0
  next: (() => Promise<FeedPayload>)[] = []

  cacheTtlMs() {
    return 60_000
  }

  async fetch() {
    this.calls++
    const answer = this.next.shift()
    if (!answer) throw new Error('no scripted answer left')
    return answer()
  }

  answers(value: number) {
    this.next.push(async () => ({ data: { value }, last_updated: value, data_source: 'script' }))
  }

  fails() {
    this.next.push(async () => {
      throw new SourceUnavailable('upstream answered 503')
    })
  }
}

test.group('Reading a feed through its source', (group) => {
  let driver: ScriptedDriver
  let clock: ManualClock

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    driver = new ScriptedDriver()
    sources.fake('scripted', () => driver)
    const manual = await useManualClock()
    clock = manual.clock
    return async () => {
      manual.restore()
      await sources.restore()
    }
  })

  /**
   * A feed on the scripted source, and a reader with a cache of its own, so
   * tests do not share cached values.
   */
  async function scriptedFeed() {
    const feed = await createFeed({ slug: 'scripted-feed', sourceType: 'scripted' })
    const feeds = new FeedReader(
      await app.container.make('feeds.sources'),
      new FeedCache(clock, { maxEntries: 100 }),
      await app.container.make(FeedStats),
      clock
    )
    return { feed, feeds }
  }

  async function statsOf(feedId: string) {
    const db = await app.container.make('lucid.db')
    return db.from('feed_stats').where('feed_id', feedId).first()
  }

  test('serves the cached value while it is younger than the TTL, then fetches again', async ({
    assert,
  }) => {
    const { feed, feeds } = await scriptedFeed()
    driver.answers(1)
    driver.answers(2)

    const first = await feeds.read(feed, {})
    clock.advance(59_999)
    const cached = await feeds.read(feed, {})
    clock.advance(1)
    const refreshed = await feeds.read(feed, {})

    assert.deepEqual(
      [first.data, cached.data, refreshed.data],
      [{ value: 1 }, { value: 1 }, { value: 2 }]
    )
    assert.equal(driver.calls, 2)
  })

  test('a failing source with nothing cached is source_unavailable, counted against uptime', async ({
    assert,
  }) => {
    const { feed, feeds } = await scriptedFeed()
    driver.fails()

    await assert.rejects(() => feeds.read(feed, {}), E_SOURCE_UNAVAILABLE)
    const stats = await statsOf(feed.id)
    assert.equal(Number(stats.source_calls), 1)
    assert.equal(Number(stats.source_failures), 1)
  })

  test('serves the last good value flagged stale while younger than twice the TTL', async ({
    assert,
  }) => {
    const { feed, feeds } = await scriptedFeed()
    driver.answers(7)
    driver.fails()
    driver.fails()
    await feeds.read(feed, {})

    clock.advance(119_999)
    assert.deepEqual(await feeds.read(feed, {}), {
      data: { value: 7 },
      last_updated: 7,
      data_source: 'script',
      stale: true,
    })

    clock.advance(1)
    await assert.rejects(() => feeds.read(feed, {}), E_SOURCE_UNAVAILABLE)
  })

  test('concurrent identical requests share one fetch; other queries fetch their own', async ({
    assert,
  }) => {
    const { feed, feeds } = await scriptedFeed()
    driver.answers(1)
    driver.answers(2)

    const [a, b, c] = await Promise.all([
      feeds.read(feed, { x: '1', y: '2' }),
      feeds.read(feed, { y: '2', x: '1' }),
      feeds.read(feed, { x: '9' }),
    ])

    assert.deepEqual(a, b)
    assert.notDeepEqual(a.data, c.data)
    assert.equal(driver.calls, 2)
  })

  test('a bug in a driver is not disguised as an unavailable source', async ({ assert }) => {
    const { feed, feeds } = await scriptedFeed()

    await assert.rejects(() => feeds.read(feed, {}), 'no scripted answer left')
    assert.isNull(await statsOf(feed.id))
  })
})
