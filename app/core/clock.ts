/** Cancels a callback scheduled with `Clock.setTimeout`; nothing happens once it has run. */
export type CancelTimeout = () => void

/**
 * The time source of every time check and every timer, so tests control
 * time instead of sleeping. Swap it with
 * `app.container.swap(Clock, () => new ManualClock())` (tests/support/clock.ts).
 */
export class Clock {
  now(): number {
    return Date.now()
  }

  /** Runs `callback` once, `delayMs` from now. */
  setTimeout(callback: () => void, delayMs: number): CancelTimeout {
    const timer = setTimeout(callback, delayMs)
    return () => clearTimeout(timer)
  }

  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, delayMs))
  }
}
