import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { DocumentIntake } from '#feeds/document_intake'
import { FeedSnapshots } from '#feeds/feed_snapshots'
import { createFeed } from '#tests/support/feeds'

/**
 * Documents stored at the same time on separate connections (no global test
 * transaction here, so each store really runs concurrently, as two app
 * instances or two workers of a provider's push job would).
 */
test.group('Received documents stored concurrently', () => {
  test('each is stored, as consecutive versions of the feed', async ({ assert, cleanup }) => {
    const feed = await createFeed({ slug: 'concurrent-uploads', sourceType: 'manual_upload' })
    cleanup(() => feed.delete())
    const intake = await app.container.make(DocumentIntake)

    const stored = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        intake.accept(feed, 'upload', JSON.stringify({ index }))
      )
    )

    assert.sameMembers(
      stored.map((snapshot) => snapshot.version),
      Array.from({ length: 12 }, (_, index) => index + 1)
    )
    const snapshots = await app.container.make(FeedSnapshots)
    const current = await snapshots.current(feed.id)
    assert.equal(current?.version, 12)
  })
})
