import type { DateTime } from 'luxon'
import type { DeclaredOutput } from '#feeds/output_schema'
import { grantPushSecret } from '#feeds/push_secrets'
import Feed from '#models/feed'
import type { FeedSource } from '#provider_accounts/feed_sources'
import type { FeedInput } from '#provider_accounts/validators'

/**
 * A provider's new feed, active, unsaved; a feed that takes pushes comes
 * with its push secret (issued at `now`), returned to be shown once.
 */
export function newFeed(
  providerId: string,
  input: FeedInput,
  source: FeedSource,
  output: DeclaredOutput,
  now: DateTime
) {
  const feed = new Feed().merge({
    providerId,
    slug: input.slug,
    displayName: input.display_name,
    description: input.description ?? '',
    priceMicrostx: input.price_stx,
    sourceType: source.sourceType,
    sourceSettings: source.sourceSettings,
    status: 'active',
    ...output,
  })
  return { feed, pushSecret: grantPushSecret(feed, source.receives, now) }
}
