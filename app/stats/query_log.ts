import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Microstx } from '#ledger/money'

export interface PaidCall {
  feedId: string
  txid: string
  payer: string
  /** Already sanitised x-agent-name, or undefined. */
  agentName?: string
  price: Microstx
  responseMs: number
}

/**
 * Records a paid call in the query log and in the rollups (feed_stats,
 * agent_stats), inside the caller's transaction — the one that confirms the
 * payment and posts its ledger entries. The last valid agent name wins.
 */
@inject()
export class QueryLog {
  async recordPaidCall(trx: TransactionClientContract, call: PaidCall) {
    // One statement (one round-trip inside the confirming transaction): the log row and both rollups.
    await trx.rawQuery(
      `WITH logged AS (
         INSERT INTO query_log (feed_id, txid, payer, agent_name, price_microstx, response_ms)
         VALUES (?, ?, ?, NULLIF(?, ''), ?, ?)
       ), feed AS (
         INSERT INTO feed_stats (feed_id, total_queries, total_response_ms) VALUES (?, 1, ?)
         ON CONFLICT (feed_id) DO UPDATE SET
           total_queries = feed_stats.total_queries + 1,
           total_response_ms = feed_stats.total_response_ms + EXCLUDED.total_response_ms
       )
       INSERT INTO agent_stats (payer, agent_name, total_queries, total_spent_microstx)
       VALUES (?, NULLIF(?, ''), 1, ?)
       ON CONFLICT (payer) DO UPDATE SET
         agent_name = COALESCE(EXCLUDED.agent_name, agent_stats.agent_name),
         total_queries = agent_stats.total_queries + 1,
         total_spent_microstx = agent_stats.total_spent_microstx + EXCLUDED.total_spent_microstx,
         updated_at = now()`,
      [
        call.feedId,
        call.txid,
        call.payer,
        call.agentName ?? '',
        call.price.toString(),
        call.responseMs,
        call.feedId,
        call.responseMs,
        call.payer,
        call.agentName ?? '',
        call.price.toString(),
      ]
    )
  }
}
