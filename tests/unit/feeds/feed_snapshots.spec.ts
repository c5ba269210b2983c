import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { FeedsConfig } from '#feeds/define_config'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { createFeed } from '#tests/support/feeds'
import { changeConfig } from '#tests/support/config'
import { inGlobalTransaction } from '#tests/support/database'

test.group('Feed snapshots | config', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('a feed keeps as many versions as the bound FeedsConfig says', async ({
    assert,
    cleanup,
  }) => {
    const config = await app.container.make(FeedsConfig)
    cleanup(changeConfig(config.snapshots, { keep: 2 }))
    const feed = await createFeed({ slug: 'kept-versions', sourceType: 'manual_upload' })

    const snapshots = await app.container.make(FeedSnapshots)
    for (let version = 1; version <= 4; version++) {
      const data = { version }
      await snapshots.store(feed.id, { body: JSON.stringify(data), data, lastUpdated: version })
    }

    const kept = await snapshots.versions(feed.id)
    assert.deepEqual(
      kept.map((snapshot) => snapshot.version),
      [4, 3]
    )
  })
})
