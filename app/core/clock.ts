/** Cancels a callback scheduled with `Clock.setTimeout`; nothing happens once it has run. */
export type CancelTimeout = () => void

/** A time-out by the clock: `signal` aborts with a `TimeoutError` when it falls due. */
export interface Deadline {
  signal: AbortSignal
  /** Cancels the time-out once the work is done, so no timer outlives it. */
  clear: CancelTimeout
}

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

  /**
   * A signal for `fetch` and friends that aborts `delayMs` from now by this
   * clock, as `AbortSignal.timeout` does by the wall clock (which tests and the
   * simulation cannot move).
   */
  deadline(delayMs: number): Deadline {
    const controller = new AbortController()
    const clear = this.setTimeout(() => {
      controller.abort(new DOMException(`timed out after ${delayMs} ms`, 'TimeoutError'))
    }, delayMs)
    return { signal: controller.signal, clear }
  }

  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, delayMs))
  }
}
