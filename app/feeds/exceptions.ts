import { createError } from '@adonisjs/core/exceptions'
import { defineError, ERROR_CODES } from '#core/error_codes'
import { DetailedException } from '#core/exceptions'

/** The feed's source failed (time-out, 5xx, malformed or unexpected answer) and nothing fresh enough is cached. */
export const E_SOURCE_UNAVAILABLE = defineError<[feed: string]>(
  'source_unavailable',
  'The source of feed "%s" is unavailable; nothing was charged'
)

/** An unknown feed; `suggestion` is an existing one whose name is a likely typo away. */
export const E_FEED_NOT_FOUND = class FeedNotFound extends DetailedException {
  static status = ERROR_CODES.feed_not_found.status
  static code = 'E_FEED_NOT_FOUND'

  readonly details: { suggestion?: string }

  constructor(feed: string, suggestion?: string) {
    super(suggestion ? `No feed "${feed}"; did you mean "${suggestion}"?` : `No feed "${feed}"`)
    this.details = suggestion ? { suggestion } : {}
  }
}

export const E_UNKNOWN_SOURCE_DRIVER = createError<[driver: string]>(
  'No feed source driver named "%s" is configured',
  'E_UNKNOWN_SOURCE_DRIVER',
  500
)

export const E_FEED_UNAVAILABLE = defineError<[feed: string]>(
  'feed_unavailable',
  'Feed "%s" is paused by its provider'
)
