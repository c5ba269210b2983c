import type { DateTime } from 'luxon'
import { signingSecrets } from '#core/signing_secrets'
import type { ReceivedDocuments } from '#feeds/source_driver'
import type Feed from '#models/feed'

/** webhook_push secrets (`tbp_…`): the provider signs its pushes with K (Tollbooth signature v1). */
export const pushSecrets = signingSecrets('tbp_', 'webhook push')

/**
 * Gives the feed a new push secret (the old one stops at once), issued at
 * `now` (the Clock's); returns it, to be shown once.
 */
export function issuePushSecret(feed: Feed, now: DateTime): string {
  const issued = pushSecrets.issue()
  feed.pushKeyEncrypted = issued.encryptedKey
  feed.pushSecretIssuedAt = now
  return issued.secret
}

/**
 * A feed whose source takes pushes gets its push secret when it has none.
 * A feed keeps its secret across source and mode changes (docs/api.md#providers-providers-meproviders,
 * "Mode switch"):
 * only rotation replaces it. Returns a new secret, to be shown once.
 */
export function grantPushSecret(
  feed: Feed,
  receives: ReceivedDocuments | undefined,
  now: DateTime
): string | undefined {
  if (receives?.via !== 'push' || feed.pushKeyEncrypted) return undefined
  return issuePushSecret(feed, now)
}
