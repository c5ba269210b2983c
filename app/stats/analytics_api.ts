/**
 * A provider's analytics as the API answers them (provider_analytics.ts
 * builds them, the dashboard reads them). This file imports nothing: the
 * pages import its types.
 */

/** Paid calls, revenue (µSTX) and source errors over a period. */
export interface Figures {
  queries: number
  revenue_microstx: number
  gross_microstx: number
  unique_buyers: number
  avg_response_ms: number
  errors: number
  error_rate: number
}

export interface FeedFigures extends Figures {
  slug: string
  status: 'active' | 'paused' | 'deleted'
}

export interface DayFigures extends Figures {
  /** YYYY-MM-DD (UTC). */
  day: string
}

export interface AnalyticsView {
  as_of: string
  last_24h_since: string
  last_7d_since: string
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
  feed_breakdown: FeedFigures[]
  day_breakdown: DayFigures[]
}
