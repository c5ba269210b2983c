/** How often a URL mirror may be polled (seconds), and a new feed's default. */
export const URL_MIRROR_POLL_INTERVALS = [60, 300, 900, 3600] as const
export const DEFAULT_POLL_INTERVAL_SECONDS = 300
