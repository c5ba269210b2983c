import app from '@adonisjs/core/services/app'
import { Clock } from '#core/clock'

/** A clock tests move by hand. */
export class ManualClock extends Clock {
  constructor(private current = 1_795_300_000_000) {
    super()
  }

  now() {
    return this.current
  }

  advance(ms: number) {
    this.current += ms
  }
}

export function useManualClock() {
  const clock = new ManualClock()
  app.container.swap(Clock, () => clock)
  return { clock, restore: () => app.container.restore(Clock) }
}
