import { defineError } from '#core/error_codes'

/**
 * Sign-In With Stacks refusals (docs/api.md), of a sign-in or of a signed
 * wallet link. Every one is a 401: the caller gets a new nonce and signs again.
 */

/** Unknown nonce, or a nonce issued to another wallet, for another purpose or statement. */
export const E_CHALLENGE_NOT_FOUND = defineError(
  'challenge_not_found',
  'No challenge with this nonce for this wallet and request; request a new nonce'
)

export const E_CHALLENGE_EXPIRED = defineError(
  'challenge_expired',
  'The challenge has expired; request a new nonce'
)

export const E_CHALLENGE_USED = defineError(
  'challenge_used',
  'The challenge was already used; request a new nonce'
)

/** Issued under another PUBLIC_URL (domain, URI) or network (chain id) than the current one. */
export const E_CHALLENGE_FOREIGN = defineError(
  'challenge_foreign',
  'The challenge was issued for another domain, URI or network; request a new nonce'
)

/** A `message` sent along differs from the text the nonce was issued with. */
export const E_MESSAGE_MISMATCH = defineError(
  'message_mismatch',
  'The message is not the one issued with this nonce; sign the issued message unchanged'
)

/** Not RSV hex, not recoverable, or recovered from a key that is not the wallet's. */
export const E_SIGNATURE_INVALID = defineError(
  'signature_invalid',
  "The signature is not the wallet's signature of the issued message"
)

/** Missing, malformed, unknown, expired or revoked bearer token. */
export const E_UNAUTHENTICATED = defineError(
  'unauthenticated',
  'A valid bearer session token is required'
)
