/**
 * The owner API's answers for providers and feeds (docs/api.md,
 * "Providers"): provider_views.ts builds them, the dashboard reads them. This
 * file imports nothing: the pages import its types, so they never copy them.
 */

export type IntegrationMode = 'partner_bridge' | 'hosted_mirror'

/** A stored snapshot's metadata (snapshot_view.ts). */
export interface SnapshotView {
  version: number
  size_bytes: number
  content_hash: string
  /** Unix milliseconds, as the document's payload says. */
  last_updated: number
  fetched_at: string
}

/** A Hosted Mirror feed's source health (times ISO 8601 UTC). */
export interface SourceHealthView {
  last_success_at: string | null
  last_error: string | null
  consecutive_failures: number
  next_poll_at: string | null
  snapshot: SnapshotView | null
}

/** The owner's view of a feed. */
export interface FeedView {
  slug: string
  display_name: string
  description: string | null
  price_microstx: number
  price_stx: string
  status: 'active' | 'paused'
  url: string
  source_type: string
  /** Partner Bridge: the settings at the top level. */
  source_path?: unknown
  forward_query?: unknown
  /** Hosted Mirror: the source type and its driver's settings (`url`, `poll_interval_seconds`, …). */
  source?: { type: string; [setting: string]: unknown }
  /** A pushed feed's address, and when its push secret was issued. */
  push_url?: string
  push_secret_issued_at?: string | null
  source_health?: SourceHealthView
  /** JSON Schema (2020-12) of the data, and an example, as declared; null when none. */
  output_schema: Record<string, unknown> | null
  output_example: unknown
  created_at: string | null
  updated_at: string | null
}

/** The owner's view of a provider: identity, wallets, mode, revenue (µSTX) and feeds. */
export interface ProviderView {
  id: string
  handle: string
  display_name: string
  description: string | null
  website: string | null
  x_account: string | null
  integration_mode: IntegrationMode
  partner_endpoint: string | null
  status: 'pending' | 'active'
  owner_wallet: string
  custodial_wallet: string
  linked_withdrawal_wallet: string | null
  withdrawal_wallet_held_until: string | null
  hmac_secret_issued_at: string | null
  pending_revenue: number
  lifetime_earned: number
  total_withdrawn: number
  pending_revenue_stx: number
  profile_url: string
  feeds: FeedView[]
  created_at: string | null
}
