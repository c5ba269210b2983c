import { createError } from '@adonisjs/core/exceptions'
import { DetailedException } from '#core/exceptions'

/** The feed's source failed (time-out, 5xx, malformed or unexpected answer) and nothing fresh enough is cached. */
export const E_SOURCE_UNAVAILABLE = createError<[feed: string]>(
  'The source of feed "%s" is unavailable; nothing was charged',
  'E_SOURCE_UNAVAILABLE',
  503
)

/** An unknown feed; `suggestion` is an existing one whose name is a likely typo away. */
export const E_FEED_NOT_FOUND = class FeedNotFound extends DetailedException {
  static status = 404
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

export const E_FEED_UNAVAILABLE = createError<[feed: string]>(
  'Feed "%s" is paused by its provider',
  'E_FEED_UNAVAILABLE',
  503
)
