import { defineError } from '#core/error_codes'

export const E_PROVIDER_NOT_FOUND = defineError<[provider: string]>(
  'provider_not_found',
  'No provider "%s"'
)

export const E_NOT_OWNER = defineError(
  'not_owner',
  'Only the wallet that registered this provider can manage it'
)

/** A link of a wallet other than the owner wallet sent without the owner wallet's signature. */
export const E_OWNER_SIGNATURE_REQUIRED = defineError(
  'owner_signature_required',
  "Linking a withdrawal wallet other than the owner wallet also needs the owner wallet's signature of owner_challenge (owner_nonce, owner_signature)"
)

export const E_HANDLE_TAKEN = defineError<[handle: string]>(
  'handle_taken',
  'The handle "%s" is already taken'
)

export const E_SLUG_TAKEN = defineError<[slug: string]>(
  'slug_taken',
  'This provider already has a feed "%s"'
)

export const E_PROVIDER_FEED_NOT_FOUND = defineError<[slug: string]>(
  'feed_not_found',
  'This provider has no feed "%s"'
)

export const E_NOT_PARTNER_BRIDGE = defineError(
  'not_partner_bridge',
  'This provider is not in Partner Bridge mode'
)

export const E_NO_FEEDS = defineError('no_feeds', 'The provider has no feed to test against yet')

export const E_MODE_UNCHANGED = defineError<[mode: string]>(
  'mode_unchanged',
  'The provider is already in %s mode'
)

/** A feed cap of config/providers.ts (`feedLimits`); the argument names the limit. */
export const E_FEED_LIMIT_REACHED = defineError<[limit: string]>(
  'feed_limit_reached',
  'Feed limit reached: %s'
)
