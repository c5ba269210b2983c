import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { type AccountKind, accounts } from '#ledger/accounts'
import { type PostingKind, WITHDRAWAL_POSTING_KINDS, WITHDRAWN_POSTING_KINDS } from '#ledger/ledger'
import { parseMicrostx } from '#ledger/money'

export interface LedgerAuditReport {
  transactions: number
  entries: number
  /** One human-readable line per problem; empty when the ledger is sound. */
  discrepancies: string[]
}

type AuditCheck = (client: QueryClientContract) => Promise<string[]>

/* The ledger's kinds, bound into the checks' SQL from their typed definitions. */
const PAYMENT: PostingKind = 'payment'
const PROVIDER_PENDING: AccountKind = 'provider_pending'

/**
 * Recomputes what the ledger guarantees and reports every difference: each
 * ledger transaction has entries that sum to zero, all entries together sum
 * to zero, the totals of every account that may not go negative equal its
 * entries and leave it at or above zero, every provider's cached balances
 * equal its ledger account, every
 * credited payment is a confirmed feed payment this service handed to the
 * node itself, for the amount posted, and every such payment is credited;
 * every withdrawal's postings match its status, and no platform nonce is used
 * by two withdrawals (what the chain says of them: WithdrawalChainAudit).
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
    accountTotals,
    providerBalances,
    creditedPaymentsWeBroadcast,
    confirmedPaymentsCredited,
    withdrawalPostingsMatchStatus,
    withdrawalPostingsHaveWithdrawals,
    platformNoncesUsedOnce,
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

/** The totals the no-negative rule is checked against, recomputed from the entries. */
async function accountTotals(client: QueryClientContract) {
  const result = await client.rawQuery(
    `SELECT a.name, a.debits_microstx, a.credits_microstx,
            coalesce(sum(e.amount_microstx) FILTER (WHERE e.amount_microstx > 0), 0) AS debits,
            coalesce(-sum(e.amount_microstx) FILTER (WHERE e.amount_microstx < 0), 0) AS credits
       FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account = a.name
      WHERE NOT a.may_go_negative
      GROUP BY a.name
     HAVING a.debits_microstx <> coalesce(sum(e.amount_microstx) FILTER (WHERE e.amount_microstx > 0), 0)
         OR a.credits_microstx <> coalesce(-sum(e.amount_microstx) FILTER (WHERE e.amount_microstx < 0), 0)
         OR a.debits_microstx > a.credits_microstx
      ORDER BY a.name`
  )
  return result.rows.map(
    (row: Record<string, string>) =>
      `account ${row.name}: kept debits/credits ${row.debits_microstx}/${row.credits_microstx} µSTX, entries say ${row.debits}/${row.credits}` +
      (BigInt(row.debits_microstx) > BigInt(row.credits_microstx) ? ', below zero' : '')
  )
}

async function providerBalances(client: QueryClientContract) {
  const result = await client.rawQuery(
    `WITH ledger AS (
       SELECT p.id,
              coalesce(-sum(e.amount_microstx), 0) AS pending,
              coalesce(-sum(e.amount_microstx) FILTER (WHERE t.kind = ?), 0) AS earned,
              coalesce(sum(e.amount_microstx) FILTER (WHERE t.kind = ANY(?)), 0) AS withdrawn
         FROM providers p
         LEFT JOIN ledger_accounts a ON a.provider_id = p.id AND a.kind = ?
         LEFT JOIN ledger_entries e ON e.account = a.name
         LEFT JOIN ledger_transactions t ON t.id = e.transaction_id
        GROUP BY p.id
     )
     SELECT p.handle, p.pending_revenue_microstx, p.lifetime_earned_microstx, p.total_withdrawn_microstx,
            l.pending, l.earned, l.withdrawn
       FROM providers p JOIN ledger l ON l.id = p.id
      WHERE p.pending_revenue_microstx <> l.pending
         OR p.lifetime_earned_microstx <> l.earned
         OR p.total_withdrawn_microstx <> l.withdrawn
      ORDER BY p.handle`,
    [PAYMENT, [...WITHDRAWN_POSTING_KINDS], PROVIDER_PENDING]
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
                            WHERE e.transaction_id = t.id AND e.account = ?) w
       LEFT JOIN payments p ON p.txid = t.reference
      WHERE t.kind = ?
        AND (p.txid IS NULL OR p.purpose <> 'feed' OR p.status <> 'confirmed'
             OR p.broadcast_at IS NULL OR p.amount_microstx IS DISTINCT FROM w.received)
      ORDER BY t.created_at, t.id`,
    [accounts.platformWallet.name, PAYMENT]
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
        AND NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.kind = ? AND t.reference = p.txid)
      ORDER BY p.claimed_at`,
    [PAYMENT]
  )
  return result.rows.map(
    (row: { txid: string }) => `confirmed payment 0x${row.txid} has no ledger posting`
  )
}

/**
 * Each withdrawal is debited once for its amount; a failed one is reversed, a
 * confirmed one paid out (with its network fee), and nothing else.
 */
async function withdrawalPostingsMatchStatus(client: QueryClientContract) {
  const [debit, reversal, payout, fee] = WITHDRAWAL_POSTING_KINDS
  const result = await client.rawQuery(
    `WITH postings AS (
       SELECT t.reference, t.kind, sum(e.amount_microstx) FILTER (WHERE e.amount_microstx > 0) AS debit
         FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
        WHERE t.kind = ANY(?)
        GROUP BY t.reference, t.kind
     ),
     withdrawal_postings AS (
       SELECT w.id, w.status, w.amount_microstx, w.fee_microstx, min(w.created_at) AS created_at,
              max(p.debit) FILTER (WHERE p.kind = ?) AS debited,
              max(p.debit) FILTER (WHERE p.kind = ?) AS reversed,
              max(p.debit) FILTER (WHERE p.kind = ?) AS paid_out,
              max(p.debit) FILTER (WHERE p.kind = ?) AS fee
         FROM withdrawals w LEFT JOIN postings p ON p.reference = w.id::text
        GROUP BY w.id
     )
     SELECT * FROM withdrawal_postings
      WHERE debited IS DISTINCT FROM amount_microstx
         OR (status = 'failed') <> (reversed IS NOT NULL)
         OR (status = 'confirmed') <> (paid_out IS NOT NULL)
         OR greatest(reversed, paid_out) <> amount_microstx
         OR (status = 'confirmed' AND coalesce(fee_microstx, 0) > 0
             AND fee IS DISTINCT FROM fee_microstx)
      ORDER BY created_at`,
    [[...WITHDRAWAL_POSTING_KINDS], debit, reversal, payout, fee]
  )
  return result.rows.map(
    (row: Record<string, string | null>) =>
      `withdrawal ${row.id} (${row.status}, ${row.amount_microstx} µSTX, fee ${row.fee_microstx ?? 0}): ` +
      `debited ${row.debited ?? 'nothing'}, reversed ${row.reversed ?? 'nothing'}, ` +
      `paid out ${row.paid_out ?? 'nothing'}, fee posted ${row.fee ?? 'nothing'}`
  )
}

async function withdrawalPostingsHaveWithdrawals(client: QueryClientContract) {
  const result = await client.rawQuery(
    `SELECT t.kind, t.reference FROM ledger_transactions t
      WHERE t.kind = ANY(?)
        AND NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.id::text = t.reference)
      ORDER BY t.created_at, t.id`,
    [[...WITHDRAWAL_POSTING_KINDS]]
  )
  return result.rows.map(
    (row: { kind: string; reference: string }) =>
      `${row.kind} posting "${row.reference}" has no withdrawal`
  )
}

async function platformNoncesUsedOnce(client: QueryClientContract) {
  const result = await client.rawQuery(
    `SELECT sender_address, nonce, count(*) AS uses FROM withdrawals
      WHERE nonce IS NOT NULL AND status <> 'failed'
      GROUP BY sender_address, nonce HAVING count(*) > 1
      ORDER BY nonce`
  )
  return result.rows.map(
    (row: { sender_address: string; nonce: string; uses: string }) =>
      `platform nonce ${row.nonce} of ${row.sender_address} is used by ${row.uses} withdrawals`
  )
}
