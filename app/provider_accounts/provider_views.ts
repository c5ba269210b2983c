import { publicUrl } from '#core/public_url'
import { formatStx, type Microstx, stxNumber } from '#ledger/money'
import { paidFeedPath } from '#feeds/feed_paths'
import type { SourceHealth } from '#feeds/feed_snapshots'
import type { ReceivedDocuments } from '#feeds/source_driver'
import { snapshotView } from '#feeds/snapshot_view'
import type Feed from '#models/feed'
import type Provider from '#models/provider'
import type { FeedView, ProviderView, SourceHealthView } from '#provider_accounts/owner_api'

/** JSON shapes of providers and their feeds (snake_case, µSTX as integers). */

export function feedUrl(provider: Pick<Provider, 'handle'>, feed: Pick<Feed, 'slug'>) {
  return publicUrl(paidFeedPath({ handle: provider.handle, slug: feed.slug }))
}

function price(amount: Microstx) {
  return { price_microstx: Number(amount), price_stx: formatStx(amount) }
}

/** What the owner's feed view shows beyond the row: how its source works, and its health. */
export interface FeedSourceFacts {
  /** Hosted Mirror sources (polled or receiving): their health is shown, empty until the first poll or document. */
  mirrored?: boolean
  health?: SourceHealth
  receives?: ReceivedDocuments
}

/** The owner's view of a feed, with its source settings and, for a mirror, its source health. */
export function privateFeedView(
  provider: Provider,
  feed: Feed,
  facts: FeedSourceFacts = {}
): FeedView {
  const settings = feed.sourceSettings
  return {
    slug: feed.slug,
    display_name: feed.displayName,
    description: feed.description,
    ...price(feed.priceMicrostx),
    status: feed.status,
    url: feedUrl(provider, feed),
    source_type: feed.sourceType,
    ...(feed.sourceType === 'partner_bridge'
      ? { source_path: settings.source_path, forward_query: settings.forward_query ?? [] }
      : { source: { type: feed.sourceType, ...settings } }),
    output_schema: feed.outputSchema ?? null,
    output_example: feed.outputExample ?? null,
    ...(facts.receives?.via === 'push'
      ? {
          push_url: publicUrl(`/ingest/${provider.handle}/${feed.slug}`),
          push_secret_issued_at: feed.pushSecretIssuedAt?.toUTC().toISO() ?? null,
        }
      : {}),
    ...(facts.mirrored ? { source_health: sourceHealthView(facts.health) } : {}),
    created_at: feed.createdAt.toISO(),
    updated_at: feed.updatedAt.toISO(),
  }
}

/** A mirror's source health in words and times (ISO 8601 UTC), as its owner sees it. */
function sourceHealthView(health: SourceHealth | undefined): SourceHealthView {
  const state = health?.state
  return {
    last_success_at: state?.lastSuccessAt?.toISOString() ?? null,
    last_error: state?.lastError ?? null,
    consecutive_failures: state?.failures ?? 0,
    next_poll_at: state?.nextPollAt?.toISOString() ?? null,
    snapshot: health?.snapshot ? snapshotView(health.snapshot) : null,
  }
}

/** What anyone may know of a provider. */
export function providerIdentity(provider: Provider) {
  return {
    handle: provider.handle,
    display_name: provider.displayName,
    description: provider.description,
    website: provider.website,
    x_account: provider.xAccount,
    integration_mode: provider.integrationMode,
  }
}

/**
 * Where withdrawals go, and until when a recent change holds them (ISO 8601 UTC, or null).
 * A provider just created has neither column set on the model (the row's NULL
 * is not read back), so both are null then rather than left out.
 */
export function withdrawalWalletView(provider: Provider) {
  return {
    linked_withdrawal_wallet: provider.linkedWithdrawalWallet ?? null,
    withdrawal_wallet_held_until: provider.withdrawalWalletHeldUntil?.toUTC().toISO() ?? null,
  }
}

/** The owner's view: identity, wallets, mode, revenue and feeds. Never a secret or its key. */
export function privateProviderView(
  provider: Provider,
  feeds: Feed[] = [],
  facts: Map<string, FeedSourceFacts> = new Map()
): ProviderView {
  return {
    id: provider.id,
    ...providerIdentity(provider),
    partner_endpoint: provider.partnerEndpoint,
    status: provider.status,
    owner_wallet: provider.ownerWallet,
    custodial_wallet: provider.custodialAddress,
    ...withdrawalWalletView(provider),
    hmac_secret_issued_at: provider.hmacSecretIssuedAt?.toISO() ?? null,
    pending_revenue: Number(provider.pendingRevenueMicrostx),
    lifetime_earned: Number(provider.lifetimeEarnedMicrostx),
    total_withdrawn: Number(provider.totalWithdrawnMicrostx),
    pending_revenue_stx: stxNumber(provider.pendingRevenueMicrostx),
    profile_url: publicUrl(`/providers/${provider.handle}`),
    feeds: feeds.map((feed) => privateFeedView(provider, feed, facts.get(feed.id))),
    created_at: provider.createdAt.toISO(),
  }
}
