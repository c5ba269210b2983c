import { createError } from '@adonisjs/core/exceptions'

/** The feed's source failed (time-out, 5xx, malformed or unexpected answer) and nothing fresh enough is cached. */
export const E_SOURCE_UNAVAILABLE = createError<[feed: string]>(
  'The source of feed "%s" is unavailable; nothing was charged',
  'E_SOURCE_UNAVAILABLE',
  503
)

export const E_FEED_NOT_FOUND = createError<[feed: string]>('No feed "%s"', 'E_FEED_NOT_FOUND', 404)

export const E_UNKNOWN_SOURCE_DRIVER = createError<[driver: string]>(
  'No feed source driver named "%s" is configured',
  'E_UNKNOWN_SOURCE_DRIVER',
  500
)

export const E_FEED_UNAVAILABLE = createError<[feed: string]>(
  'Feed "%s" is paused by its provider',
  'E_FEED_UNAVAILABLE',
  503
)
