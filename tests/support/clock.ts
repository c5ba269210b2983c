import app from '@adonisjs/core/services/app'
import { StacksClient } from '#chain/stacks_client'
import { type CancelTimeout, Clock } from '#core/clock'
import { FeedCache } from '#feeds/feed_cache'
import { FeedDirectory } from '#feeds/feed_directory'
import { FeedReader } from '#feeds/feed_reader'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { OutboundClient } from '#outbound/outbound_client'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { CachedPayerAccounts } from '#payments/payer_accounts'
import { PreBroadcastChecks } from '#payments/pre_broadcast_checks'
import { LocalSettlement } from '#payments/settlement/local_settlement'
import { PaymentSettlement } from '#payments/settlement/payment_settlement'
import { ManifestReportCache } from '#provider_accounts/manifest/manifest_report_cache'

interface Timer {
  dueAt: number
  callback: () => void
}

/**
 * A clock tests move by hand: `advance(ms)` moves the time and runs, in time
 * order, every callback that falls due on the way, each at its own time.
 */
export class ManualClock extends Clock {
  /** In due order; equal times in the order they were set. */
  #timers: Timer[] = []

  constructor(private current = 1_795_300_000_000) {
    super()
  }

  now() {
    return this.current
  }

  setTimeout(callback: () => void, delayMs: number): CancelTimeout {
    const timer = { dueAt: this.current + Math.max(0, delayMs), callback }
    const later = this.#timers.findIndex((scheduled) => scheduled.dueAt > timer.dueAt)
    this.#timers.splice(later === -1 ? this.#timers.length : later, 0, timer)
    return () => {
      this.#timers = this.#timers.filter((scheduled) => scheduled !== timer)
    }
  }

  advance(ms: number) {
    const until = this.current + ms
    while (this.#timers.length > 0 && this.#timers[0].dueAt <= until) {
      const due = this.#timers.shift()!
      this.current = due.dueAt
      due.callback()
    }
    this.current = until
  }

  /** When the next callback falls due, or null when none waits. */
  get nextDueAt(): number | null {
    return this.#timers[0]?.dueAt ?? null
  }

  /** How many callbacks are waiting to fall due. */
  get pendingTimers() {
    return this.#timers.length
  }
}

/**
 * The singletons that take the Clock when first resolved (providers/*) and
 * keep it for the rest of the process (the feed source drivers are resolved
 * apart, by name). tests/unit/core/clock_holders.spec.ts fails when a
 * provider binds one that is not listed here.
 */
export const CLOCK_HOLDERS = [
  StacksClient,
  OutboundClient,
  ConfirmationWatcher,
  CachedPayerAccounts,
  LocalSettlement,
  PaymentSettlement,
  PreBroadcastChecks,
  FeedCache,
  FeedDirectory,
  FeedReader,
  ManifestReportCache,
]

/**
 * Resolves every singleton that holds the clock and every configured source
 * driver, with what the container binds now. A test that swaps one of their
 * own dependencies (the Database) resolves them first, so none keeps its swap.
 */
export async function resolveClockHolders() {
  for (const holder of CLOCK_HOLDERS) await app.container.make(holder)
  const sources = await app.container.make(FeedSourceManager)
  for (const name of sources.names()) await sources.use(name)
}

/**
 * Swaps the clock for a ManualClock after resolving, on the clock in place,
 * every singleton that holds one and every configured source driver: whichever
 * test resolves them first, they never keep a manual clock (whose time-outs
 * would never fire after the test). A test that needs one of them on the
 * manual clock swaps in its own (docs/testing.md#the-clock).
 */
export async function useManualClock() {
  await resolveClockHolders()
  const clock = new ManualClock()
  app.container.swap(Clock, () => clock)
  return { clock, restore: () => app.container.restore(Clock) }
}

/**
 * Real time moved to a chosen instant: `now()` runs on from there and timers
 * fire in real time. For tests that pass through real waits (a paid call on
 * the devnet) yet need the app to record it at a chosen date.
 */
export class ShiftedClock extends Clock {
  #offsetMs = 0

  now() {
    return Date.now() + this.#offsetMs
  }

  /** From now on, `now()` reads `epochMs` and moves on in real time. */
  set(epochMs: number) {
    this.#offsetMs = epochMs - Date.now()
  }
}

/**
 * Swaps the clock for a ShiftedClock. Singletons built before keep the real
 * clock; on restore the shifted one falls back to real time, so one built
 * meanwhile does not keep a moved time.
 */
export function useShiftedClock() {
  const clock = new ShiftedClock()
  app.container.swap(Clock, () => clock)
  return {
    clock,
    restore: () => {
      clock.set(Date.now())
      app.container.restore(Clock)
    },
  }
}
