import { publicUrl } from '#core/public_url'
import { stxNumber } from '#ledger/money'
import { paidFeedPath } from '#feeds/feed_paths'
import type Feed from '#models/feed'
import type Provider from '#models/provider'
import { MANIFEST_VERSION } from '#provider_accounts/manifest/manifest_checks'

type ListedFeed = Pick<Feed, 'slug' | 'sourceType' | 'sourceSettings'>

/**
 * The `feeds[].path` a provider's manifest lists for a feed (docs/api.md,
 * "Provider manifest verification"): a Partner Bridge feed's source_path, a
 * Hosted Mirror feed's marketplace path `/feeds/p/<handle>/<slug>` (it has no
 * route of its own). Null for a feed of the other mode.
 */
export function manifestFeedPath(
  provider: Pick<Provider, 'handle' | 'integrationMode'>,
  feed: ListedFeed
) {
  const bridged = feed.sourceType === 'partner_bridge'
  if (provider.integrationMode === 'partner_bridge') {
    const path = feed.sourceSettings.source_path
    return bridged && typeof path === 'string' ? path : null
  }
  return bridged ? null : paidFeedPath({ handle: provider.handle, slug: feed.slug })
}

/**
 * The manifest a provider serves to be verified, filled in with its handle,
 * mode and live feeds: served as is at its website, it passes every check
 * (given a website and at least one live feed; docs/api.md).
 */
export function manifestTemplate(provider: Provider, feeds: Feed[]) {
  const bridge = provider.integrationMode === 'partner_bridge'
  return {
    version: MANIFEST_VERSION,
    provider: {
      name: provider.displayName,
      handle: provider.handle,
      description: provider.description ?? '',
      website: provider.website ?? '',
    },
    partnerships: [
      {
        marketplace: 'Tollbooth',
        marketplace_url: publicUrl(),
        marketplace_handle: provider.handle,
        marketplace_verification_url: publicUrl(`/providers/${provider.handle}/manifest`),
        integration_mode: provider.integrationMode,
        ...(bridge ? { partner_endpoint: provider.partnerEndpoint } : {}),
      },
    ],
    feeds: feeds.flatMap((feed) => {
      const path = manifestFeedPath(provider, feed)
      if (!path) return []
      return [
        {
          slug: feed.slug,
          name: feed.displayName,
          path,
          method: 'GET',
          suggested_price_stx: stxNumber(feed.priceMicrostx),
        },
      ]
    }),
    supported_payments: ['x402-stacks'],
  }
}
