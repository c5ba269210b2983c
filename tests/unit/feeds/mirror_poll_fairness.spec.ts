import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { FeedsConfig } from '#feeds/define_config'
import type { MirrorPollingConfig } from '#feeds/define_config'
import { MirrorPoller } from '#feeds/mirror_poller'
import sources from '#feeds/services/main'
import { type ManualClock, useManualClock } from '#tests/support/clock'
import { emptyMarketplace } from '#tests/support/database'
import type { LocalSite } from '#tests/support/local_site'
import { insertPolledFeeds, startMirroredFiles } from '#tests/support/polled_feeds'

/** `polling` of config/feeds.ts, what mirrors:poll runs with. */
const { polling: POLLING } = await app.container.make(FeedsConfig)
const OWNER_A = 'ST1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
const OWNER_B = 'ST1BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'
const OWNER_C = 'ST1CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC'

test.group('mirrors:poll across owners', (group) => {
  let clock: ManualClock
  let site: LocalSite
  /** The paths the site was asked for, in the order the requests arrived. */
  let asked: string[]
  let onRequest: () => void

  group.each.setup(async () => {
    // The source drivers take the clock when they are created and the manager
    // keeps them: created afresh on the manual clock, and again after it.
    const manual = await useManualClock()
    await sources.close()
    clock = manual.clock
    asked = []
    onRequest = () => {}
    site = await startMirroredFiles((path) => {
      asked.push(path)
      onRequest()
    })
    return async () => {
      await site.close()
      manual.restore()
      await sources.close()
      await emptyMarketplace()
    }
  })

  const secondsAgo = (seconds: number) => () => clock.now() - seconds * 1_000
  /** A poller as a scheduler makes one (a new instance per run). */
  async function runPoller(options?: MirrorPollingConfig) {
    const poller = await app.container.make(MirrorPoller)
    return poller.run(options)
  }
  const timesAsked = (path: string) => asked.filter((asked_) => asked_ === path).length

  test("one run polls another owner's 60 s feed however many feeds a big owner has due, and polls them all", async ({
    assert,
  }) => {
    const big = await insertPolledFeeds({
      site,
      ownerWallet: OWNER_A,
      handle: 'big-owner',
      count: 3 * POLLING.batchSize,
      dueAt: secondsAgo(600),
    })
    const [small] = await insertPolledFeeds({
      site,
      ownerWallet: OWNER_B,
      handle: 'small-owner',
      count: 1,
      dueAt: secondsAgo(61),
    })

    const summary = await runPoller()

    assert.equal(timesAsked(small.path), 1, "the other owner's feed was polled")
    assert.isBelow(
      asked.indexOf(small.path),
      POLLING.concurrency,
      'among the first polls, not after the big owner'
    )
    assert.equal(summary.polled, big.length + 1)
    assert.equal(new Set(asked).size, big.length + 1, 'every due feed polled, each once')
    assert.isFalse(summary.outOfTime)
    const due = await db
      .from('feed_source_states')
      .where('next_poll_at', '<=', new Date(clock.now()))
      .count('* as count')
    assert.equal(Number(due[0].count), 0, 'nothing left due')
  })

  test('feeds are polled by owner wallet in turn: one of each owner, then the next of each', async ({
    assert,
  }) => {
    // Owner A has two providers; its three feeds are the most overdue.
    const a1 = await insertPolledFeeds({
      site,
      ownerWallet: OWNER_A,
      handle: 'a-first',
      count: 2,
      dueAt: (index) => clock.now() - (300 - 20 * index) * 1_000,
    })
    const [a2] = await insertPolledFeeds({
      site,
      ownerWallet: OWNER_A,
      handle: 'a-second',
      count: 1,
      dueAt: secondsAgo(290),
    })
    const b = await insertPolledFeeds({
      site,
      ownerWallet: OWNER_B,
      handle: 'b-only',
      count: 2,
      dueAt: (index) => clock.now() - (200 - 10 * index) * 1_000,
    })
    const [c] = await insertPolledFeeds({
      site,
      ownerWallet: OWNER_C,
      handle: 'c-only',
      count: 1,
      dueAt: secondsAgo(100),
    })

    await runPoller({ ...POLLING, concurrency: 1, batchSize: 4 })

    assert.deepEqual(asked, [a1[0].path, b[0].path, c.path, a2.path, b[1].path, a1[1].path])
  })

  test('two pollers at once poll every due feed exactly once', async ({ assert }) => {
    for (const [index, owner] of [OWNER_A, OWNER_B, OWNER_C].entries()) {
      await insertPolledFeeds({
        site,
        ownerWallet: owner,
        handle: `owner-${index}`,
        count: 90,
        dueAt: secondsAgo(120),
      })
    }
    const options: MirrorPollingConfig = { ...POLLING, batchSize: 20 }

    const [first, second] = await Promise.all([runPoller(options), runPoller(options)])

    assert.equal(first.polled + second.polled, 270)
    assert.lengthOf(asked, 270)
    assert.equal(new Set(asked).size, 270, 'no feed polled twice')
  })

  test('a run stops claiming after runSeconds; the next run polls the rest first', async ({
    assert,
  }) => {
    const feeds = await insertPolledFeeds({
      site,
      ownerWallet: OWNER_A,
      handle: 'slow-owner',
      count: 30,
      dueAt: secondsAgo(120),
    })
    // Each poll takes 4 s of the clock: a 45 s run claims 5 at 0, 20 and 40 s, then stops.
    onRequest = () => clock.advance(4_000)
    const options: MirrorPollingConfig = {
      ...POLLING,
      batchSize: 5,
      concurrency: 1,
      runSeconds: 45,
    }

    const first = await runPoller(options)

    assert.containsSubset(first, { polled: 15, outOfTime: true })
    const second = await runPoller(options)
    assert.containsSubset(second, { polled: 15, outOfTime: true })
    assert.sameMembers(
      asked,
      feeds.map((feed) => feed.path)
    )
  })
})
