import { availableParallelism, cpus } from 'node:os'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Clock } from '#core/clock'
import { FeedsConfig } from '#feeds/define_config'
import { MirrorPoller, type PollSummary } from '#feeds/mirror_poller'
import { ShiftedClock } from '#tests/support/clock'
import { emptyMarketplace } from '#tests/support/database'
import { insertPolledFeeds, startMirroredFiles } from '#tests/support/polled_feeds'

/**
 * `npm run bench`: Hosted Mirror polling at the size the feed caps admit —
 * 50 owner wallets × 100 polled feeds (the per-owner cap), 5 000 feeds on a
 * real HTTP server on 127.0.0.1 — with `mirrors:poll` run as the scheduler
 * runs it: once a minute, never two at once (a run still going when its
 * minute comes skips that minute, as withoutOverlapping does). The clock is
 * real time moved forward to each simulated minute, so a run's own duration
 * is real. Each owner's feeds poll every 60 s (40), 300 s (30), 900 s (20)
 * and 3600 s (10); they start due on the scheduler's minutes, spread over
 * their interval, as feeds are once polled (a poll makes the next due at its
 * run's start + the interval). Lateness = when the poll reached the file
 * minus when the feed was due.
 */
const OWNERS = 50
const FEEDS_PER_OWNER = 100
const MINUTES = 10
const INTERVALS: Array<{ seconds: number; share: number }> = [
  { seconds: 60, share: 40 },
  { seconds: 300, share: 30 },
  { seconds: 900, share: 20 },
  { seconds: 3600, share: 10 },
]

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

test.group('Benchmark', () => {
  test('mirrors:poll: 5 000 polled feeds across 50 owner wallets', async ({ assert }) => {
    const clock = new ShiftedClock()
    app.container.swap(Clock, () => clock)
    const { polling } = await app.container.make(FeedsConfig)
    const arrivals: Array<{ path: string; at: number }> = []
    const site = await startMirroredFiles((path) => arrivals.push({ path, at: clock.now() }))
    const minuteMs = 60_000
    const start = Math.ceil(Date.now() / minuteMs) * minuteMs + 10 * minuteMs

    try {
      await emptyMarketplace()
      const intervalOf = new Map<string, number>()
      const feedOfPath = new Map<string, string>()
      /** How many polls fall due in the simulated minutes (on time), and how many feeds. */
      let expected = 0
      let feedsDueInTheWindow = 0
      for (let owner = 0; owner < OWNERS; owner++) {
        for (const { seconds, share } of INTERVALS) {
          const count = (FEEDS_PER_OWNER * share) / 100
          const minutes = seconds / 60
          const phaseOf = (index: number) => (owner * count + index) % minutes
          const feeds = await insertPolledFeeds({
            site,
            ownerWallet: `ST${String(owner).padStart(3, '0')}BENCHOWNER`,
            handle: `bench-${owner}-${seconds}`,
            count,
            intervalSeconds: seconds,
            dueAt: (index) => start + phaseOf(index) * minuteMs,
          })
          for (const [index, feed] of feeds.entries()) {
            intervalOf.set(feed.path, seconds * 1_000)
            feedOfPath.set(feed.path, feed.id)
            expected += Math.max(0, Math.ceil((MINUTES - phaseOf(index)) / minutes))
            if (phaseOf(index) < MINUTES) feedsDueInTheWindow++
          }
        }
      }

      const poller = await app.container.make(MirrorPoller)
      const lateness: number[] = []
      /** From the fourth minute on: every feed has been fetched once, the polls are 304s. */
      const steadyLateness: number[] = []
      const firstDue = new Set<string>()
      const runs: Array<PollSummary & { minute: number; seconds: number }> = []
      const lastPollOf = new Map<string, number>()
      const overruns: number[] = []
      let skipped = 0
      let polls = 0
      let pollingMs = 0
      let freeAt = start
      for (let minute = 0; minute < MINUTES; minute++) {
        const tick = start + minute * minuteMs
        if (tick < freeAt) {
          skipped++
          continue
        }
        const dueRows = await db.from('feed_source_states').select('feed_id', 'next_poll_at')
        const dueAt = new Map(
          dueRows.map((row) => [row.feed_id as string, (row.next_poll_at as Date).getTime()])
        )
        clock.set(tick)
        arrivals.length = 0
        const summary = await poller.run(polling)
        const took = clock.now() - tick
        freeAt = tick + took
        runs.push({ ...summary, minute, seconds: took / 1_000 })
        polls += summary.polled
        pollingMs += took
        for (const { path, at } of arrivals) {
          const late = Math.max(0, at - dueAt.get(feedOfPath.get(path)!)!)
          lateness.push(late)
          if (minute >= 3) steadyLateness.push(late)
          firstDue.add(path)
          const previous = lastPollOf.get(path)
          if (previous !== undefined) overruns.push(at - previous - intervalOf.get(path)!)
          lastPollOf.set(path, at)
        }
      }

      const s = (ms: number) => (ms / 1_000).toFixed(1)
      const results: Record<string, string> = {
        'machine': `${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, Node ${process.version}`,
        'feeds / owners / simulated minutes': `${feedOfPath.size} / ${OWNERS} / ${MINUTES}`,
        'polling config': JSON.stringify(polling),
        'polls (due in those minutes if all on time)': `${polls} (${expected})`,
        'polls/s while a run runs': (polls / (pollingMs / 1_000)).toFixed(1),
        'lateness p50 / p99 / max (s), all polls': `${s(percentile(lateness, 50))} / ${s(percentile(lateness, 99))} / ${s(Math.max(...lateness))}`,
        'lateness p50 / p99 / max (s), minutes 4-10': `${s(percentile(steadyLateness, 50))} / ${s(percentile(steadyLateness, 99))} / ${s(Math.max(...steadyLateness))}`,
        'gap between polls of a feed minus its interval, max (s)': s(Math.max(0, ...overruns)),
        'runs: seconds each': runs.map((run) => run.seconds.toFixed(1)).join(', '),
        'runs: polls each': runs.map((run) => run.polled).join(', '),
        'runs out of time / minutes skipped': `${runs.filter((run) => run.outOfTime).length} / ${skipped}`,
      }
      console.log('\nBenchmark results: mirrors:poll')
      for (const [name, value] of Object.entries(results)) {
        console.log(`  ${name.padEnd(56)} ${value}`)
      }

      assert.equal(
        runs.reduce((sum, run) => sum + run.failed, 0),
        0
      )
      // A guard, not a target: a busy machine may run late, but no feed may starve.
      assert.equal(firstDue.size, feedsDueInTheWindow, 'every feed due in the window was polled')
    } finally {
      await site.close()
      app.container.restore(Clock)
      await emptyMarketplace()
    }
  })
})
