import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { parseMicrostx } from '#ledger/money'

export interface LedgerAuditReport {
  transactions: number
  entries: number
  /** One human-readable line per problem; empty when the ledger is sound. */
  discrepancies: string[]
}

type AuditCheck = (client: QueryClientContract) => Promise<string[]>

/**
 * Recomputes what the ledger guarantees and reports every difference: each
 * ledger transaction has entries that sum to zero, all entries together sum
 * to zero, every provider's cached balances equal its ledger accounts, every
 * credited payment is a confirmed feed payment this service handed to the
 * node itself, for the amount posted, and every such payment is credited.
 * Each check is one function in `checks` and one SQL statement, hence one
 * snapshot: postings are atomic and balanced, so concurrent ones cannot fake
 * a difference.
 */
@inject()
export class LedgerAudit {
  constructor(private db: Database) {}

  protected checks: AuditCheck[] = [
    unbalancedTransactions,
    grandTotal,
    providerBalances,
    creditedPaymentsWeBroadcast,
    confirmedPaymentsCredited,
  ]

  async run(): Promise<LedgerAuditReport> {
    const client = this.db.connection()
    const discrepancies: string[] = []
    for (const check of this.checks) discrepancies.push(...(await check(client)))
    const counts = await client.rawQuery(
      `SELECT (SELECT count(*) FROM ledger_transactions) AS transactions,
              (SELECT count(*) FROM ledger_entries) AS entries`
    )
    return {
      transactions: Number(counts.rows[0].transactions),
      entries: Number(counts.rows[0].entries),
      discrepancies,
    }
  }
}

async function unbalancedTransactions(client: QueryClientContract) {
  const result = await client.rawQuery(
    `SELECT t.id, t.kind, t.reference, count(e.id) AS entries,
            coalesce(sum(e.amount_microstx), 0) AS total
       FROM ledger_transactions t
       LEFT JOIN ledger_entries e ON e.transaction_id = t.id
      GROUP BY t.id
     HAVING count(e.id) = 0 OR sum(e.amount_microstx) <> 0
      ORDER BY t.created_at, t.id`
  )
  return result.rows.map(
    (row: { id: string; kind: string; reference: string; entries: string; total: string }) =>
      Number(row.entries) === 0
        ? `transaction ${row.id} (${row.kind} "${row.reference}") has no entries`
        : `transaction ${row.id} (${row.kind} "${row.reference}") sums to ${parseMicrostx(row.total)} µSTX, not 0`
  )
}

async function grandTotal(client: QueryClientContract) {
  const result = await client.rawQuery(
    `SELECT coalesce(sum(amount_microstx), 0) AS total FROM ledger_entries`
  )
  const total = parseMicrostx(result.rows[0].total)
  return total === 0n ? [] : [`all entries sum to ${total} µSTX, not 0`]
}

async function providerBalances(client: QueryClientContract) {
  const result = await client.rawQuery(
    `WITH ledger AS (
       SELECT p.id,
              coalesce(-sum(e.amount_microstx) FILTER (WHERE e.account = 'provider:' || p.id || ':pending'), 0) AS pending,
              coalesce(-sum(e.amount_microstx) FILTER (WHERE e.account = 'provider:' || p.id || ':pending'
                                                          AND t.kind = 'payment'), 0) AS earned,
              coalesce(sum(e.amount_microstx) FILTER (WHERE e.account = 'provider:' || p.id || ':pending'
                                                         AND t.kind IN ('withdrawal', 'withdrawal_reversal')), 0) AS withdrawn
         FROM providers p
         LEFT JOIN ledger_entries e ON e.account = 'provider:' || p.id || ':pending'
         LEFT JOIN ledger_transactions t ON t.id = e.transaction_id
        GROUP BY p.id
     )
     SELECT p.handle, p.pending_revenue_microstx, p.lifetime_earned_microstx, p.total_withdrawn_microstx,
            l.pending, l.earned, l.withdrawn
       FROM providers p JOIN ledger l ON l.id = p.id
      WHERE p.pending_revenue_microstx <> l.pending
         OR p.lifetime_earned_microstx <> l.earned
         OR p.total_withdrawn_microstx <> l.withdrawn
      ORDER BY p.handle`
  )
  return result.rows.map(
    (row: Record<string, string>) =>
      `provider ${row.handle}: cached pending/earned/withdrawn ${row.pending_revenue_microstx}/${row.lifetime_earned_microstx}/${row.total_withdrawn_microstx} µSTX, ledger says ${row.pending}/${row.earned}/${row.withdrawn}`
  )
}

/** A credit for a transfer we did not broadcast is money sold twice (issue 9's top-up attack). */
async function creditedPaymentsWeBroadcast(client: QueryClientContract) {
  const result = await client.rawQuery(
    `SELECT t.reference, p.txid, p.purpose, p.status, p.broadcast_at, p.amount_microstx, w.received
       FROM ledger_transactions t
       CROSS JOIN LATERAL (SELECT sum(e.amount_microstx) AS received FROM ledger_entries e
                            WHERE e.transaction_id = t.id AND e.account = 'platform:wallet') w
       LEFT JOIN payments p ON p.txid = t.reference
      WHERE t.kind = 'payment'
        AND (p.txid IS NULL OR p.purpose <> 'feed' OR p.status <> 'confirmed'
             OR p.broadcast_at IS NULL OR p.amount_microstx IS DISTINCT FROM w.received)
      ORDER BY t.created_at, t.id`
  )
  return result.rows.map((row: Record<string, string | null>) => {
    const what = `payment posting "${row.reference}"`
    if (row.txid === null) return `${what} has no payment this service claimed`
    if (row.purpose !== 'feed')
      return `${what} credits a ${row.purpose} settlement, not a feed call`
    if (row.status !== 'confirmed') return `${what} credits a payment that is ${row.status}`
    if (row.broadcast_at === null) {
      return `${what} credits a transfer with no record of this service broadcasting it`
    }
    return `${what} received ${row.received} µSTX, the payment is of ${row.amount_microstx} µSTX`
  })
}

async function confirmedPaymentsCredited(client: QueryClientContract) {
  const result = await client.rawQuery(
    `SELECT p.txid FROM payments p
      WHERE p.purpose = 'feed' AND p.status = 'confirmed'
        AND NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.kind = 'payment' AND t.reference = p.txid)
      ORDER BY p.claimed_at`
  )
  return result.rows.map(
    (row: { txid: string }) => `confirmed payment 0x${row.txid} has no ledger posting`
  )
}
