import { createError } from '@adonisjs/core/exceptions'

/**
 * Sign-In With Stacks refusals (docs/api.md). Every one is a 401: the caller
 * gets a new nonce and signs again.
 */

/** Unknown nonce, or a nonce issued to another wallet or for another purpose. */
export const E_CHALLENGE_NOT_FOUND = createError(
  'No sign-in challenge with this nonce for this wallet; request a new nonce',
  'E_CHALLENGE_NOT_FOUND',
  401
)

export const E_CHALLENGE_EXPIRED = createError(
  'The sign-in challenge has expired; request a new nonce',
  'E_CHALLENGE_EXPIRED',
  401
)

export const E_CHALLENGE_USED = createError(
  'The sign-in challenge was already used; request a new nonce',
  'E_CHALLENGE_USED',
  401
)

/** Issued under another PUBLIC_URL (domain, URI) or network (chain id) than the current one. */
export const E_CHALLENGE_FOREIGN = createError(
  'The sign-in challenge was issued for another domain, URI or network; request a new nonce',
  'E_CHALLENGE_FOREIGN',
  401
)

/** A `message` sent along differs from the text the nonce was issued with. */
export const E_MESSAGE_MISMATCH = createError(
  'The message is not the one issued with this nonce; sign the issued message unchanged',
  'E_MESSAGE_MISMATCH',
  401
)

/** Not RSV hex, not recoverable, or recovered from a key that is not the wallet's. */
export const E_SIGNATURE_INVALID = createError(
  "The signature is not the wallet's signature of the issued message",
  'E_SIGNATURE_INVALID',
  401
)

/** Missing, malformed, unknown, expired or revoked bearer token. */
export const E_UNAUTHENTICATED = createError(
  'A valid bearer session token is required',
  'E_UNAUTHENTICATED',
  401
)
