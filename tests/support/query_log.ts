import app from '@adonisjs/core/services/app'
import Feed from '#models/feed'
import { QueryLog } from '#stats/query_log'

/**
 * Paid calls as the query log records them once a payment confirms (the feed
 * by slug, numbered txids), for the statistics, activity and leaderboard
 * that read it. No money moves: the ledger is not involved.
 */
export async function recordPaidCalls(
  calls: { feed: string; payer: string; price: bigint; ms: number; agent?: string }[]
) {
  const db = await app.container.make('lucid.db')
  const log = await app.container.make(QueryLog)
  let n = 0
  for (const call of calls) {
    const feed = await Feed.findByOrFail('slug', call.feed)
    await db.transaction(async (trx) => {
      n++
      await log.recordPaidCall(trx, {
        feedId: feed.id,
        txid: n.toString(16).padStart(64, '0'),
        payer: call.payer,
        agentName: call.agent,
        price: call.price,
        providerShare: 0n,
        responseMs: call.ms,
      })
    })
  }
}
