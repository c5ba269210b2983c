import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'

/**
 * Empties what a test or a simulated run committed outside a global
 * transaction, back to the migrated database: the built-in feeds and their
 * counters stay; providers and their feeds, payments, stats, the ledger,
 * withdrawals, credit tokens and calls, and sessions go (the ledger's accounts too: posting opens them again).
 */
export async function emptyMarketplace() {
  await db.rawQuery(
    `TRUNCATE payments, query_log, credit_calls, credit_tokens, agent_stats, feed_daily_stats, feed_hourly_stats,
              feed_daily_buyers, feed_snapshots, feed_source_states, withdrawal_events,
              withdrawals, platform_nonces, ledger_entries, ledger_transactions, ledger_accounts`
  )
  await db.rawQuery(
    `DELETE FROM feed_stats WHERE feed_id IN (SELECT id FROM feeds WHERE provider_id IS NOT NULL)`
  )
  await db.rawQuery(`DELETE FROM feeds WHERE provider_id IS NOT NULL`)
  await db.rawQuery(`DELETE FROM providers`)
  await db.rawQuery(`TRUNCATE auth_access_tokens, auth_challenges, users CASCADE`)
}

/**
 * For tests whose writes commit: empties the marketplace afterwards and puts
 * the built-in feeds' counters (feed_stats, which emptyMarketplace keeps)
 * back as they were before. Returns the function that does it.
 */
export async function emptyMarketplaceLater() {
  const counters = await db.from('feed_stats')
  return async () => {
    await emptyMarketplace()
    const kept = counters.map((row) => row.feed_id as string)
    await db.from('feed_stats').whereNotIn('feed_id', kept).delete()
    for (const row of counters) {
      const { feed_id: feedId, ...values } = row
      await db.from('feed_stats').where('feed_id', feedId).update(values)
    }
  }
}

/**
 * For a test whose writes are rolled back afterwards: one transaction for the
 * whole test (Lucid's global transaction), in which the query log's rollups
 * are added as each paid call is logged. The database adds them when a
 * transaction commits (docs/performance.md#hot-rows), and this one never
 * does. Returns the function that rolls it back.
 */
export async function inGlobalTransaction() {
  const rollBack = await testUtils.db().withGlobalTransaction()
  await db.rawQuery('SET CONSTRAINTS query_log_roll_up IMMEDIATE')
  return rollBack
}
