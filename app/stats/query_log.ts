import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import type { Microstx } from '#ledger/money'
import { utcDay, utcHourStart } from '#stats/utc_periods'

export type PaidCall = PaidCallFields &
  /** How it was paid: an on-chain payment (its txid) or credit (its credit call). */
  ({ txid: string; creditCallId?: never } | { creditCallId: string; txid?: never })

interface PaidCallFields {
  feedId: string
  payer: string
  /** Already sanitised x-agent-name, or undefined. */
  agentName?: string
  price: Microstx
  /** What the feed's provider was credited of `price` (0 for a built-in feed). */
  providerShare: Microstx
  responseMs: number
}

/**
 * Records a paid call in the query log and in the rollups (feed_stats,
 * agent_stats, and the per-day and per-hour analytics rollups keyed by the
 * clock's UTC time; every timestamp is the clock's), inside the caller's
 * transaction — the one that confirms the payment (or serves the call from
 * credit) and posts its ledger entries. The last valid agent name wins.
 */
@inject()
export class QueryLog {
  constructor(private clock: Clock) {}

  async recordPaidCall(trx: TransactionClientContract, call: PaidCall) {
    const now = this.clock.now()
    const price = call.price.toString()
    const share = call.providerShare.toString()
    // One statement (one round-trip inside the confirming transaction): the log row and every rollup.
    await trx.rawQuery(
      `WITH logged AS (
         INSERT INTO query_log
           (feed_id, txid, credit_call_id, payer, agent_name, price_microstx, response_ms, created_at)
         VALUES (:feed, NULLIF(:txid, ''), NULLIF(:creditCall, '')::uuid, :payer, NULLIF(:agent, ''),
           :price, :ms, :at)
       ), feed AS (
         INSERT INTO feed_stats (feed_id, total_queries, total_response_ms) VALUES (:feed, 1, :ms)
         ON CONFLICT (feed_id) DO UPDATE SET
           total_queries = feed_stats.total_queries + 1,
           total_response_ms = feed_stats.total_response_ms + EXCLUDED.total_response_ms
       ), daily AS (
         INSERT INTO feed_daily_stats
           (feed_id, day, queries, gross_microstx, provider_share_microstx, total_response_ms)
         VALUES (:feed, :day, 1, :price, :share, :ms)
         ON CONFLICT (feed_id, day) DO UPDATE SET
           queries = feed_daily_stats.queries + 1,
           gross_microstx = feed_daily_stats.gross_microstx + EXCLUDED.gross_microstx,
           provider_share_microstx =
             feed_daily_stats.provider_share_microstx + EXCLUDED.provider_share_microstx,
           total_response_ms = feed_daily_stats.total_response_ms + EXCLUDED.total_response_ms
       ), hourly AS (
         INSERT INTO feed_hourly_stats (feed_id, hour, queries, provider_share_microstx)
         VALUES (:feed, :hour, 1, :share)
         ON CONFLICT (feed_id, hour) DO UPDATE SET
           queries = feed_hourly_stats.queries + 1,
           provider_share_microstx =
             feed_hourly_stats.provider_share_microstx + EXCLUDED.provider_share_microstx
       ), buyer AS (
         INSERT INTO feed_daily_buyers (feed_id, day, payer) VALUES (:feed, :day, :payer)
         ON CONFLICT DO NOTHING
       )
       INSERT INTO agent_stats (payer, agent_name, total_queries, total_spent_microstx, updated_at)
       VALUES (:payer, NULLIF(:agent, ''), 1, :price, :at)
       ON CONFLICT (payer) DO UPDATE SET
         agent_name = COALESCE(EXCLUDED.agent_name, agent_stats.agent_name),
         total_queries = agent_stats.total_queries + 1,
         total_spent_microstx = agent_stats.total_spent_microstx + EXCLUDED.total_spent_microstx,
         updated_at = EXCLUDED.updated_at`,
      {
        feed: call.feedId,
        txid: call.txid ?? '',
        creditCall: call.creditCallId ?? '',
        payer: call.payer,
        agent: call.agentName ?? '',
        price,
        share,
        ms: call.responseMs,
        day: utcDay(now),
        hour: utcHourStart(now),
        at: new Date(now),
      }
    )
  }
}
