import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { ApplicationService } from '@adonisjs/core/types'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { sources as driverFactories } from '#feeds/define_config'
import type { FeedSourceDriver } from '#feeds/source_driver'
import type Feed from '#models/feed'
import {
  FIXED_DOCUMENT_DECLARATION,
  FixedDocumentDriver,
} from '#tests/support/fixed_document_driver'

const feed = { slug: 'any', sourceSettings: {} } as unknown as Feed

/** A manager of the two Hosted Mirror sources a provider can send documents to. */
function manager() {
  return new FeedSourceManager(
    {
      sources: {
        webhook_push: driverFactories.received({ via: 'push', maxBytes: 1_048_576 }),
        manual_upload: driverFactories.received({ via: 'upload', maxBytes: 1_048_576 }),
      },
    },
    app
  )
}

test.group('FeedSourceManager', () => {
  test('a factory gets its name and the app, as @adonisjs/drive factories do', async ({
    assert,
  }) => {
    const seen: Array<[string, ApplicationService]> = []
    const sources = new FeedSourceManager(
      {
        sources: {
          fixed: driverFactories.custom(FIXED_DOCUMENT_DECLARATION, (name, application) => {
            seen.push([name, application])
            return new FixedDocumentDriver()
          }),
        },
      },
      app
    )
    await sources.use('fixed')
    assert.deepEqual(seen, [['fixed', app]])
    const pushed = await manager().use('webhook_push')
    assert.equal(pushed.name, 'webhook_push', 'a shipped driver is named by its config key')
    assert.deepEqual(pushed.receives, { via: 'push', maxBytes: 1_048_576 })
  })

  test('the pages get each source as its driver declares it, a new one included', ({ assert }) => {
    const sources = manager()
    sources.extend(
      'test_plugin',
      driverFactories.custom(FIXED_DOCUMENT_DECLARATION, () => new FixedDocumentDriver())
    )
    sources.extend('internal', () => new FixedDocumentDriver())
    assert.deepEqual(
      sources.choices().map(({ type, mode, delivery, label }) => [type, mode, delivery, label]),
      [
        ['webhook_push', 'hosted_mirror', 'pushed', 'You push it to us'],
        ['manual_upload', 'hosted_mirror', 'uploaded', 'You upload it by hand'],
        ['test_plugin', 'hosted_mirror', 'fetched', 'A fixed document'],
      ]
    )
    assert.deepEqual(sources.choices()[2].fields, FIXED_DOCUMENT_DECLARATION.fields)
    assert.deepEqual(sources.names('hosted_mirror'), [
      'webhook_push',
      'manual_upload',
      'test_plugin',
    ])
  })

  test('fake(name) serves an in-memory document the test controls until restore()', async ({
    assert,
  }) => {
    const sources = manager()
    const configured = await sources.use('webhook_push')
    const fake = sources.fake('webhook_push')
    fake.document = { price: 1 }

    const faked = await sources.use('webhook_push')
    const payload = await faked.fetch(feed, { query: {} })
    assert.deepEqual(payload.data, { price: 1 })
    assert.equal(fake.fetches, 1)
    assert.equal(sources.declaration('webhook_push')?.delivery, 'pushed', 'still offered as before')
    fake.failure = 'the source is down'
    await assert.rejects(() => faked.fetch(feed, { query: {} }), 'the source is down')

    await sources.restore()
    const restored = await sources.use('webhook_push')
    assert.notStrictEqual(restored, faked)
    assert.notStrictEqual(restored, configured, 'a driver made anew from the configured factory')
    assert.deepEqual(restored.receives, { via: 'push', maxBytes: 1_048_576 })
  })

  test('fake() swaps every source; fake(name, factory) a real driver with other options, or a new name', async ({
    assert,
  }) => {
    const sources = manager()
    const fake = sources.fake()
    for (const name of ['webhook_push', 'manual_upload']) {
      assert.strictEqual(await sources.use(name), fake)
    }
    await sources.restore()

    sources.fake('manual_upload', driverFactories.received({ via: 'upload', maxBytes: 32 }))
    const extra: FeedSourceDriver = new FixedDocumentDriver()
    sources.fake('extra', () => extra)
    const smaller = await sources.use('manual_upload')
    assert.deepEqual(smaller.receives, { via: 'upload', maxBytes: 32 })
    assert.strictEqual(await sources.use('extra'), extra)

    await sources.restore('manual_upload')
    const configured = await sources.use('manual_upload')
    assert.deepEqual(configured.receives, { via: 'upload', maxBytes: 1_048_576 })
    await sources.restore()
    assert.deepEqual(sources.names(), ['webhook_push', 'manual_upload'])
  })

  test('fakes nest: restore(name) puts back the fake before, then the configured driver', async ({
    assert,
  }) => {
    const sources = manager()
    const outer = sources.fake('webhook_push')
    const inner = sources.fake('webhook_push')
    assert.strictEqual(await sources.use('webhook_push'), inner)

    await sources.restore('webhook_push')
    assert.strictEqual(await sources.use('webhook_push'), outer, 'the fake before')
    assert.equal(sources.declaration('webhook_push')?.delivery, 'pushed')

    await sources.restore('webhook_push')
    const configured = await sources.use('webhook_push')
    assert.notStrictEqual(configured, outer)
    assert.deepEqual(configured.receives, { via: 'push', maxBytes: 1_048_576 })

    sources.fake('webhook_push')
    sources.fake('webhook_push')
    await sources.restore()
    const original = await sources.use('webhook_push')
    assert.deepEqual(
      original.receives,
      { via: 'push', maxBytes: 1_048_576 },
      'restore() undoes every fake at once'
    )
  })

  test('a driver that polls without a poll interval is refused when created, not on its first poll', async ({
    assert,
  }) => {
    const sources = manager()
    const unscheduled = Object.assign(new FixedDocumentDriver(), {
      poll: async () => ({ outcome: 'unchanged' as const }),
    })
    sources.extend('unscheduled', () => unscheduled)
    await assert.rejects(
      () => sources.use('unscheduled'),
      /has poll\(\) without pollIntervalMs\(\)/
    )
    await assert.rejects(() => sources.polledNames(), /"unscheduled"/)
  })
})
