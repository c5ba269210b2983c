import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { type Select, type TextRow, selectTogether } from '#core/select_together'
import { type AccountKind, accounts } from '#ledger/accounts'
import {
  EARNING_POSTING_KINDS,
  type PostingKind,
  WITHDRAWAL_POSTING_KINDS,
  WITHDRAWN_POSTING_KINDS,
} from '#ledger/ledger'
import { parseMicrostx } from '#ledger/money'
import type { PaymentPurpose } from '#payments/payment_records'

export interface LedgerAuditReport {
  transactions: number
  entries: number
  /** One human-readable line per problem; empty when the ledger is sound. */
  discrepancies: string[]
}

/** One check: a SELECT returning one row per problem, and the line that tells of each. */
export interface AuditCheck {
  select: Select
  describe(row: TextRow): string
}

/* The ledger's kinds, bound into the checks' SQL from their typed definitions. */
const PAYMENT: PostingKind = 'payment'
const CREDIT_TOP_UP: PostingKind = 'credit_top_up'
const CREDIT_CALL: PostingKind = 'credit_call'
const PROVIDER_PENDING: AccountKind = 'provider_pending'
const BUYER_CREDIT: AccountKind = 'buyer_credit'

/**
 * Recomputes what the ledger guarantees and reports every difference: each
 * ledger transaction has entries that sum to zero, all entries together sum
 * to zero, the totals of every account that may not go negative equal its
 * entries and leave it at or above zero, every provider's cached balances
 * equal its ledger account, every
 * credited payment is a confirmed feed payment this service handed to the
 * node itself, for the amount posted, and every such payment is credited
 * (top-ups likewise); every withdrawal's postings (a refund's too) match its
 * status and its source, and no platform nonce is used by two withdrawals
 * (what the chain says of them: WithdrawalChainAudit); every wallet's credit
 * is its confirmed top-ups less its credit calls and refunds, never below
 * zero, every credit call is posted once for its price, and every credit
 * token spent the prices of its calls, none above its maximum price
 * (docs/credit.md).
 * Every check is one SELECT in `LEDGER_AUDIT_CHECKS`; they run together as one
 * statement, hence one snapshot, so postings committing meanwhile cannot fake
 * a difference.
 */
@inject()
export class LedgerAudit {
  constructor(private db: Database) {}

  async run(): Promise<LedgerAuditReport> {
    const counts = {
      sql: `SELECT (SELECT count(*) FROM ledger_transactions) AS transactions,
                   (SELECT count(*) FROM ledger_entries) AS entries`,
    }
    const rows = await selectTogether(this.db.connection(), [
      counts,
      ...LEDGER_AUDIT_CHECKS.map((check) => check.select),
    ])
    const [totals] = rows[0]
    return {
      transactions: Number(totals.transactions),
      entries: Number(totals.entries),
      discrepancies: LEDGER_AUDIT_CHECKS.flatMap((check, index) =>
        rows[index + 1].map((row) => check.describe(row))
      ),
    }
  }
}

const [DEBIT, REVERSAL, PAYOUT, FEE] = WITHDRAWAL_POSTING_KINDS

/**
 * A withdrawal's postings against its status, one row per withdrawal that
 * differs; the debit and its reversal must move the withdrawal's own source
 * (its provider's pending revenue, a refund's credit account).
 */
const withdrawalPostingsSql = `WITH postings AS (
       SELECT t.reference, t.kind,
              sum(e.amount_microstx) FILTER (WHERE e.amount_microstx > 0) AS debit,
              max(e.account) FILTER (WHERE (t.kind = ? AND e.amount_microstx > 0)
                                        OR (t.kind = ? AND e.amount_microstx < 0)) AS source
         FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
        WHERE t.kind = ANY(?)
        GROUP BY t.reference, t.kind
     ),
     withdrawal_postings AS (
       SELECT w.id, w.status, w.amount_microstx, w.fee_microstx, min(w.created_at) AS created_at,
              coalesce('provider:' || w.provider_id || ':pending', 'credit:' || w.credit_address) AS owner,
              max(p.debit) FILTER (WHERE p.kind = ?) AS debited,
              max(p.debit) FILTER (WHERE p.kind = ?) AS reversed,
              max(p.debit) FILTER (WHERE p.kind = ?) AS paid_out,
              max(p.debit) FILTER (WHERE p.kind = ?) AS fee,
              max(p.source) FILTER (WHERE p.kind = ?) AS debited_from,
              max(p.source) FILTER (WHERE p.kind = ?) AS restored_to
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
         OR debited_from IS DISTINCT FROM owner
         OR (reversed IS NOT NULL AND restored_to IS DISTINCT FROM owner)
      ORDER BY created_at`

/**
 * The checks of the transfers the ledger credits, for one posting kind and
 * the purpose of its payments: every posting is of a payment of that purpose
 * this service claimed, confirmed and handed to the node itself (a credit
 * for a transfer we did not broadcast is money sold twice: issue 9's top-up
 * attack), for the amount the platform wallet received; and every such
 * confirmed payment is posted.
 */
function redeemedTransferChecks(of: {
  kind: PostingKind
  purpose: PaymentPurpose
  /** What a confirmed payment of the purpose is called, and what its posting pays for. */
  noun: string
  what: string
}): AuditCheck[] {
  return [
    {
      select: {
        sql: `SELECT t.reference, p.txid, p.purpose, p.status, p.broadcast_at, p.amount_microstx, w.received
                FROM ledger_transactions t
                LEFT JOIN (SELECT transaction_id, sum(amount_microstx) AS received FROM ledger_entries
                            WHERE account = ? GROUP BY transaction_id) w ON w.transaction_id = t.id
                LEFT JOIN payments p ON p.txid = t.reference
               WHERE t.kind = ?
                 AND (p.txid IS NULL OR p.purpose <> ? OR p.status <> 'confirmed'
                      OR p.broadcast_at IS NULL OR p.amount_microstx IS DISTINCT FROM w.received)
               ORDER BY t.created_at, t.id`,
        bindings: [accounts.platformWallet.name, of.kind, of.purpose],
      },
      describe: (row) => {
        const posting = `${of.kind} posting "${row.reference}"`
        if (row.txid === null) return `${posting} has no payment this service claimed`
        if (row.purpose !== of.purpose) {
          return `${posting} credits a ${row.purpose} settlement, not a ${of.what}`
        }
        if (row.status !== 'confirmed') return `${posting} credits a payment that is ${row.status}`
        if (row.broadcast_at === null) {
          return `${posting} credits a transfer with no record of this service broadcasting it`
        }
        return `${posting} received ${row.received} µSTX, the payment is of ${row.amount_microstx} µSTX`
      },
    },
    {
      select: {
        sql: `SELECT p.txid FROM payments p
               WHERE p.purpose = ? AND p.status = 'confirmed'
                 AND NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.kind = ? AND t.reference = p.txid)
               ORDER BY p.claimed_at`,
        bindings: [of.purpose, of.kind],
      },
      describe: (row) => `confirmed ${of.noun} 0x${row.txid} has no ledger posting`,
    },
  ]
}

/** The audit's checks, each a SELECT of one row per problem. */
export const LEDGER_AUDIT_CHECKS: readonly AuditCheck[] = [
  {
    // Every ledger transaction has entries, and they sum to zero.
    select: {
      sql: `SELECT t.id, t.kind, t.reference, count(e.id) AS entries,
                   coalesce(sum(e.amount_microstx), 0) AS total
              FROM ledger_transactions t
              LEFT JOIN ledger_entries e ON e.transaction_id = t.id
             GROUP BY t.id
            HAVING count(e.id) = 0 OR sum(e.amount_microstx) <> 0
             ORDER BY t.created_at, t.id`,
    },
    describe: (row) =>
      Number(row.entries) === 0
        ? `transaction ${row.id} (${row.kind} "${row.reference}") has no entries`
        : `transaction ${row.id} (${row.kind} "${row.reference}") sums to ${parseMicrostx(String(row.total))} µSTX, not 0`,
  },
  {
    // All entries together sum to zero.
    select: {
      sql: `SELECT sum(amount_microstx) AS total FROM ledger_entries
            HAVING coalesce(sum(amount_microstx), 0) <> 0`,
    },
    describe: (row) => `all entries sum to ${parseMicrostx(String(row.total))} µSTX, not 0`,
  },
  {
    // The totals the no-negative rule is checked against, recomputed from the entries.
    select: {
      sql: `SELECT a.name, a.debits_microstx, a.credits_microstx,
                   coalesce(sum(e.amount_microstx) FILTER (WHERE e.amount_microstx > 0), 0) AS debits,
                   coalesce(-sum(e.amount_microstx) FILTER (WHERE e.amount_microstx < 0), 0) AS credits
              FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account = a.name
             WHERE NOT a.may_go_negative
             GROUP BY a.name
            HAVING a.debits_microstx <> coalesce(sum(e.amount_microstx) FILTER (WHERE e.amount_microstx > 0), 0)
                OR a.credits_microstx <> coalesce(-sum(e.amount_microstx) FILTER (WHERE e.amount_microstx < 0), 0)
                OR a.debits_microstx > a.credits_microstx
             ORDER BY a.name`,
    },
    describe: (row) =>
      `account ${row.name}: kept debits/credits ${row.debits_microstx}/${row.credits_microstx} µSTX, entries say ${row.debits}/${row.credits}` +
      (BigInt(String(row.debits_microstx)) > BigInt(String(row.credits_microstx))
        ? ', below zero'
        : ''),
  },
  {
    // Every provider's cached balances equal its ledger account.
    select: {
      sql: `WITH ledger AS (
              SELECT p.id,
                     coalesce(-sum(e.amount_microstx), 0) AS pending,
                     coalesce(-sum(e.amount_microstx) FILTER (WHERE t.kind = ANY(?)), 0) AS earned,
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
      bindings: [[...EARNING_POSTING_KINDS], [...WITHDRAWN_POSTING_KINDS], PROVIDER_PENDING],
    },
    describe: (row) =>
      `provider ${row.handle}: cached pending/earned/withdrawn ${row.pending_revenue_microstx}/${row.lifetime_earned_microstx}/${row.total_withdrawn_microstx} µSTX, ledger says ${row.pending}/${row.earned}/${row.withdrawn}`,
  },
  ...redeemedTransferChecks({ kind: PAYMENT, purpose: 'feed', noun: 'payment', what: 'feed call' }),
  ...redeemedTransferChecks({
    kind: CREDIT_TOP_UP,
    purpose: 'credit_top_up',
    noun: 'top-up',
    what: 'top-up',
  }),
  {
    // Each withdrawal is debited once for its amount; a failed one is reversed, a
    // confirmed one paid out (with its network fee), and nothing else.
    select: {
      sql: withdrawalPostingsSql,
      bindings: [
        DEBIT,
        REVERSAL,
        [...WITHDRAWAL_POSTING_KINDS],
        DEBIT,
        REVERSAL,
        PAYOUT,
        FEE,
        DEBIT,
        REVERSAL,
      ],
    },
    describe: (row) =>
      `withdrawal ${row.id} (${row.status}, ${row.amount_microstx} µSTX, fee ${row.fee_microstx ?? 0}) of ${row.owner}: ` +
      `debited ${row.debited ?? 'nothing'} from ${row.debited_from ?? 'nothing'}, ` +
      `reversed ${row.reversed ?? 'nothing'} to ${row.restored_to ?? 'nothing'}, ` +
      `paid out ${row.paid_out ?? 'nothing'}, fee posted ${row.fee ?? 'nothing'}`,
  },
  {
    // Every withdrawal posting belongs to a withdrawal.
    select: {
      sql: `SELECT t.kind, t.reference FROM ledger_transactions t
             WHERE t.kind = ANY(?)
               AND NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.id::text = t.reference)
             ORDER BY t.created_at, t.id`,
      bindings: [[...WITHDRAWAL_POSTING_KINDS]],
    },
    describe: (row) => `${row.kind} posting "${row.reference}" has no withdrawal`,
  },
  {
    // No platform nonce is used by two live withdrawals.
    select: {
      sql: `SELECT sender_address, nonce, count(*) AS uses FROM withdrawals
             WHERE nonce IS NOT NULL AND status <> 'failed'
             GROUP BY sender_address, nonce HAVING count(*) > 1
             ORDER BY nonce`,
    },
    describe: (row) =>
      `platform nonce ${row.nonce} of ${row.sender_address} is used by ${row.uses} withdrawals`,
  },
  {
    // Every wallet's credit is its confirmed top-ups less its credit calls and its refunds
    // (refund withdrawals net of their reversals), and never below zero (docs/credit.md).
    select: {
      sql: `WITH ledger AS (
              SELECT a.wallet_address AS address,
                     coalesce(-sum(e.amount_microstx), 0) AS balance,
                     coalesce(sum(e.amount_microstx) FILTER (WHERE t.kind = ANY(?)), 0) AS refunds
                FROM ledger_accounts a
                LEFT JOIN ledger_entries e ON e.account = a.name
                LEFT JOIN ledger_transactions t ON t.id = e.transaction_id
               WHERE a.kind = ?
               GROUP BY a.wallet_address
            ), top_ups AS (
              SELECT payer AS address, sum(amount_microstx) AS total FROM payments
               WHERE purpose = 'credit_top_up' AND status = 'confirmed' GROUP BY payer
            ), calls AS (
              SELECT payer AS address, sum(price_microstx) AS total FROM credit_calls GROUP BY payer
            ), credit AS (
              SELECT w.address, coalesce(l.balance, 0) AS balance, coalesce(u.total, 0) AS top_ups,
                     coalesce(c.total, 0) AS calls, coalesce(l.refunds, 0) AS refunds
                FROM (SELECT address FROM ledger UNION SELECT address FROM top_ups
                      UNION SELECT address FROM calls) w
                LEFT JOIN ledger l ON l.address = w.address
                LEFT JOIN top_ups u ON u.address = w.address
                LEFT JOIN calls c ON c.address = w.address
            )
            SELECT * FROM credit
             WHERE balance <> top_ups - calls - refunds OR balance < 0
             ORDER BY address`,
      bindings: [[...WITHDRAWN_POSTING_KINDS], BUYER_CREDIT],
    },
    describe: (row) => {
      const expected =
        parseMicrostx(String(row.top_ups)) -
        parseMicrostx(String(row.calls)) -
        parseMicrostx(String(row.refunds))
      return (
        `credit of ${row.address}: balance ${row.balance} µSTX, its top-ups ${row.top_ups} less ` +
        `calls ${row.calls} and refunds ${row.refunds} make ${expected} µSTX` +
        (parseMicrostx(String(row.balance)) < 0n ? ', below zero' : '')
      )
    },
  },
  {
    // Every credit call posting debits its payer's credit by the call's price, and every
    // credit call is posted.
    select: {
      sql: `WITH postings AS (
              SELECT id, reference, created_at FROM ledger_transactions WHERE kind = ?
            ), debits AS (
              SELECT e.transaction_id, a.wallet_address, sum(e.amount_microstx) AS debited
                FROM ledger_entries e JOIN ledger_accounts a ON a.name = e.account
               WHERE a.kind = ? AND e.transaction_id IN (SELECT id FROM postings)
               GROUP BY e.transaction_id, a.wallet_address
            )
            SELECT p.reference, c.id, c.payer, c.price_microstx, d.debited
              FROM postings p
              FULL JOIN credit_calls c ON c.id::text = p.reference
              LEFT JOIN debits d ON d.transaction_id = p.id AND d.wallet_address = c.payer
             WHERE c.id IS NULL OR p.id IS NULL OR c.price_microstx IS DISTINCT FROM d.debited
             ORDER BY c.created_at, p.created_at`,
      bindings: [CREDIT_CALL, BUYER_CREDIT],
    },
    describe: (row) => {
      if (row.id === null) return `credit_call posting "${row.reference}" has no credit call`
      if (row.reference === null) return `credit call ${row.id} has no ledger posting`
      return `credit_call posting "${row.reference}" debits ${row.debited ?? 'nothing'} µSTX of ${row.payer}'s credit, the call cost ${row.price_microstx} µSTX`
    },
  },
  {
    // Every credit token spent exactly the prices of its calls: the spend and the call are
    // written in one transaction (docs/credit.md#credit-tokens).
    select: {
      sql: `SELECT t.id, t.address, t.spent_microstx, coalesce(sum(c.price_microstx), 0) AS calls
              FROM credit_tokens t LEFT JOIN credit_calls c ON c.token_id = t.id
             GROUP BY t.id
            HAVING t.spent_microstx <> coalesce(sum(c.price_microstx), 0)
             ORDER BY t.created_at, t.id`,
    },
    describe: (row) =>
      `credit token ${row.id} of ${row.address} spent ${row.spent_microstx} µSTX, its calls cost ${row.calls} µSTX`,
  },
  {
    // No credit call cost more than the maximum price its wallet signed for its token.
    select: {
      sql: `SELECT c.id, c.token_id, c.price_microstx, t.max_price_microstx
              FROM credit_calls c JOIN credit_tokens t ON t.id = c.token_id
             WHERE c.price_microstx > t.max_price_microstx
             ORDER BY c.created_at, c.id`,
    },
    describe: (row) =>
      `credit call ${row.id} cost ${row.price_microstx} µSTX, above its token ${row.token_id}'s maximum price ${row.max_price_microstx} µSTX`,
  },
]
