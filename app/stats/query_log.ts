import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import type { Microstx } from '#ledger/money'
import { prepared } from '#core/prepared'

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
 * Records a paid call in the query log, inside the caller's transaction — the
 * one that confirms the payment (or serves the call from credit) and posts
 * its ledger entries — with the clock's time. The database adds it to the
 * rollups (feed_stats, agent_stats, the per-day and per-hour analytics keyed
 * by UTC time, the daily buyer sets) when that transaction commits
 * (docs/performance.md#hot-rows): a feed's rollup rows are shared by all its
 * buyers and are locked only while the commit runs.
 */
@inject()
export class QueryLog {
  constructor(private clock: Clock) {}

  async recordPaidCall(trx: TransactionClientContract, call: PaidCall) {
    await prepared(
      trx.rawQuery(
        `INSERT INTO query_log (feed_id, txid, credit_call_id, payer, agent_name, price_microstx,
         provider_share_microstx, response_ms, created_at)
       VALUES (?, NULLIF(?, ''), NULLIF(?, '')::uuid, ?, NULLIF(?, ''), ?, ?, ?, ?)`,
        [
          call.feedId,
          call.txid ?? '',
          call.creditCallId ?? '',
          call.payer,
          call.agentName ?? '',
          call.price.toString(),
          call.providerShare.toString(),
          call.responseMs,
          new Date(this.clock.now()),
        ]
      )
    )
  }
}
