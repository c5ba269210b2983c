import { createError } from '@adonisjs/core/exceptions'

export const E_PROVIDER_NOT_FOUND = createError<[provider: string]>(
  'No provider "%s"',
  'E_PROVIDER_NOT_FOUND',
  404
)

export const E_NOT_OWNER = createError(
  'Only the wallet that registered this provider can manage it',
  'E_NOT_OWNER',
  403
)

export const E_HANDLE_TAKEN = createError<[handle: string]>(
  'The handle "%s" is already taken',
  'E_HANDLE_TAKEN',
  409
)

export const E_SLUG_TAKEN = createError<[slug: string]>(
  'This provider already has a feed "%s"',
  'E_SLUG_TAKEN',
  409
)

export const E_PROVIDER_FEED_NOT_FOUND = createError<[slug: string]>(
  'This provider has no feed "%s"',
  'E_FEED_NOT_FOUND',
  404
)

export const E_NOT_PARTNER_BRIDGE = createError(
  'This provider is not in Partner Bridge mode',
  'E_NOT_PARTNER_BRIDGE',
  409
)

export const E_NO_FEEDS = createError(
  'The provider has no feed to test against yet',
  'E_NO_FEEDS',
  409
)

export const E_MODE_UNCHANGED = createError<[mode: string]>(
  'The provider is already in %s mode',
  'E_MODE_UNCHANGED',
  409
)
