import app from '@adonisjs/core/services/app'
import { type CancelTimeout, Clock } from '#core/clock'

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

  /** How many callbacks are waiting to fall due. */
  get pendingTimers() {
    return this.#timers.length
  }
}

export function useManualClock() {
  const clock = new ManualClock()
  app.container.swap(Clock, () => clock)
  return { clock, restore: () => app.container.restore(Clock) }
}
