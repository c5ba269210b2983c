import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import vine from '@vinejs/vine'
import sources from '#feeds/services/main'
import { FeedReader } from '#feeds/feed_reader'
import type { FeedFetchRequest, FeedPayload, FeedSourceDriver } from '#feeds/source_driver'
import type Feed from '#models/feed'
import { createFeed } from '#tests/support/feeds'
import { inGlobalTransaction } from '#tests/support/database'

/** A driver that exists only in this test file: the plugin system's proof. */
class EchoDriver implements FeedSourceDriver {
  readonly name = 'echo'
  calls = 0
  #query = vine.create(vine.object({ word: vine.string().alpha().maxLength(20) }))

  cacheTtlMs() {
    return null
  }

  async validateQuery(_feed: Feed, query: Record<string, unknown>) {
    return this.#query.validate(query)
  }

  async fetch(feed: Feed, request: FeedFetchRequest): Promise<FeedPayload> {
    this.calls++
    return {
      data: { feed: feed.slug, echo: request.query.word },
      last_updated: 1_700_000_000_000,
      data_source: 'the echo driver',
    }
  }
}

test.group('Feed source drivers as plugins', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('a driver registered from outside the core serves a feed', async ({ assert }) => {
    const echo = new EchoDriver()
    sources.extend('echo', () => echo)
    const feed = await createFeed({ slug: 'echo-feed', sourceType: 'echo' })
    const reader = await app.container.make(FeedReader)

    const query = await reader.validateQuery(feed, { word: 'hello' })
    const payload = await reader.read(feed, query)

    assert.deepEqual(payload, {
      data: { feed: 'echo-feed', echo: 'hello' },
      last_updated: 1_700_000_000_000,
      data_source: 'the echo driver',
    })
    assert.equal(echo.calls, 1)
    assert.includeMembers(sources.names(), ['builtin', 'echo'])
  })

  test("the driver's query rules refuse bad parameters before any fetch", async ({ assert }) => {
    const echo = new EchoDriver()
    sources.extend('echo', () => echo)
    const feed = await createFeed({ slug: 'echo-feed', sourceType: 'echo' })
    const reader = await app.container.make(FeedReader)

    await assert.rejects(() => reader.validateQuery(feed, { word: 'no spaces allowed' }))
    assert.equal(echo.calls, 0)
  })
})
