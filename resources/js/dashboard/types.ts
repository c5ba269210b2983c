/** The owner API's shapes (docs/api.md, "Providers"), as the pages read them. */

export type IntegrationMode = 'partner_bridge' | 'hosted_mirror'
export type MirrorSourceType = 'codehost_raw' | 'objectstore_url' | 'webhook_push' | 'manual_upload'

export interface SourceHealth {
  last_success_at: string | null
  last_error: string | null
  consecutive_failures: number
  next_poll_at: string | null
  snapshot: {
    version: number
    size_bytes: number
    content_hash: string
    last_updated: number
    fetched_at: string
  } | null
}

export interface Feed {
  slug: string
  display_name: string
  description: string | null
  price_microstx: number
  price_stx: string
  status: 'active' | 'paused'
  url: string
  source_type: string
  source_path?: string
  forward_query?: string[]
  source?: { type: MirrorSourceType; url?: string; poll_interval_seconds?: number }
  source_health?: SourceHealth
  /** JSON Schema (2020-12) of the data, and an example, as declared; null when none. */
  output_schema: Record<string, unknown> | null
  output_example: unknown
  created_at: string
  updated_at: string
}

export interface Provider {
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
  profile_url: string
  feeds: Feed[]
  created_at: string
}

export interface DayFigures {
  day: string
  queries: number
  revenue_microstx: number
  unique_buyers: number
}

export interface Analytics {
  queries_24h: number
  queries_7d: number
  revenue_24h_microstx: number
  revenue_7d_microstx: number
  unique_buyers_7d: number
  avg_response_ms: number
  error_rate: number
  pending_revenue: number
  lifetime_earned: number
  total_withdrawn: number
  feed_breakdown: Array<{
    slug: string
    status: 'active' | 'paused' | 'deleted'
    queries: number
    revenue_microstx: number
    unique_buyers: number
    avg_response_ms: number
    error_rate: number
  }>
  day_breakdown: DayFigures[]
}

export type WithdrawalStatus = 'pending' | 'broadcast' | 'confirmed' | 'failed'

export interface Withdrawal {
  id: string
  status: WithdrawalStatus
  amount_microstx: number
  amount_stx: string
  destination_address: string
  idempotency_key: string
  memo: string
  tx_hash: string | null
  explorer_url: string | null
  block_height: number | null
  failure_reason: string | null
  created_at: string
}
