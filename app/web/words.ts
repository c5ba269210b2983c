/** 12345 → "12,345": counts as the pages and the dashboard show them. */
export function count(value: number | string) {
  return new Intl.NumberFormat('en-US').format(Number(value))
}

/** The noun for a count: 1 → "call", 0 or 2 → "calls" (pass the plural when it is not +s). */
export function noun(value: number | string, singular: string, plural = `${singular}s`) {
  return Number(value) === 1 ? singular : plural
}

/** 60 → "minute", 300 → "5 minutes", 3600 → "hour". */
export function intervalInWords(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`
  return `${seconds} seconds`
}
