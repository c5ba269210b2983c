import { createError } from '@adonisjs/core/exceptions'
import { defineError } from '#core/error_codes'

/** The feed's source failed (time-out, 5xx, malformed or unexpected answer) and nothing fresh enough is cached. */
export const E_SOURCE_UNAVAILABLE = defineError<[feed: string]>(
  'source_unavailable',
  'The source of feed "%s" is unavailable; nothing was charged'
)

export const E_FEED_NOT_FOUND = defineError<[feed: string]>('feed_not_found', 'No feed "%s"')

export const E_UNKNOWN_SOURCE_DRIVER = createError<[driver: string]>(
  'No feed source driver named "%s" is configured',
  'E_UNKNOWN_SOURCE_DRIVER',
  500
)

export const E_FEED_UNAVAILABLE = defineError<[feed: string]>(
  'feed_unavailable',
  'Feed "%s" is paused by its provider'
)
