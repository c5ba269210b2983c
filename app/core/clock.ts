/**
 * The time source of every time check, so tests control time instead of
 * sleeping. Swap it with `app.container.swap(Clock, () => new FixedClock(...))`.
 */
export class Clock {
  now(): number {
    return Date.now()
  }
}
