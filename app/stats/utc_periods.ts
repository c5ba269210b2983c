const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/** The UTC day of an instant, as a `date` column reads: "2026-11-23". */
export function utcDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10)
}

/** The start of the UTC hour of an instant. */
export function utcHourStart(epochMs: number): Date {
  return new Date(Math.floor(epochMs / HOUR_MS) * HOUR_MS)
}

/** The `count` UTC days that end with the day of `epochMs`, oldest first. */
export function utcDaysEndingAt(epochMs: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => utcDay(epochMs - (count - 1 - index) * DAY_MS))
}

/** The start of the oldest of the `count` hourly buckets that end with the current one. */
export function utcHoursStart(epochMs: number, count: number): Date {
  return new Date(utcHourStart(epochMs).getTime() - (count - 1) * HOUR_MS)
}
