import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { type Microstx, parseMicrostx } from '#ledger/money'
import { splitPayment } from '#ledger/split'
import { E_INVALID_POSTING, E_UNBALANCED_POSTING } from '#ledger/exceptions'

/** Ledger account names; a provider's accounts carry its id. */
export const accounts = {
  platformWallet: 'platform:wallet',
  platformFees: 'platform:fees',
  platformRevenue: 'platform:revenue',
  /** Withdrawals debited from providers and not yet paid out on chain. */
  payoutsInFlight: 'platform:payouts_in_flight',
  /** The network fees the platform pays for its own transactions (withdrawals). */
  networkFees: 'platform:network_fees',
  providerPending: (providerId: string) => `provider:${providerId}:pending`,
}

/** Positive = debit, negative = credit. */
export interface LedgerEntry {
  account: string
  amount: Microstx
}

export interface Posting {
  /** The business event: 'payment', 'withdrawal', 'withdrawal_reversal', … */
  kind: string
  /** The event's own id (payment txid, withdrawal id): (kind, reference) is posted once. */
  reference: string
  entries: LedgerEntry[]
}

/**
 * The double-entry ledger. Postings happen inside the caller's DB transaction
 * so the cached balances it updates commit (or not) with the entries.
 */
@inject()
export class Ledger {
  constructor(private db: Database) {}

  /**
   * Records one business event. Posting the same (kind, reference) again posts
   * nothing and answers alreadyPosted, so a retried request cannot pay twice.
   */
  async post(
    trx: TransactionClientContract,
    posting: Posting
  ): Promise<{ transactionId: string; alreadyPosted: boolean }> {
    const inserted = await this.#insert(trx, posting)
    if (inserted.alreadyPosted) return inserted
    await updateProviderBalances(trx, posting)
    await assertCommittable(trx)
    return inserted
  }

  async #insert(
    trx: TransactionClientContract,
    posting: Posting
  ): Promise<{ transactionId: string; alreadyPosted: boolean }> {
    assertBalanced(posting)
    const { kind, reference, entries } = posting

    // The transaction and its entries in one statement: nothing is inserted when
    // (kind, reference) was posted before.
    const inserted = await trx.rawQuery(
      `WITH posted AS (
         INSERT INTO ledger_transactions (kind, reference) VALUES (?, ?)
         ON CONFLICT (kind, reference) DO NOTHING
         RETURNING id
       )
       INSERT INTO ledger_entries (transaction_id, account, amount_microstx)
       SELECT posted.id, entry.account, entry.amount
         FROM posted, (VALUES ${entries.map(() => '(?, ?::bigint)').join(', ')}) AS entry (account, amount)
       RETURNING transaction_id`,
      [kind, reference, ...entries.flatMap((entry) => [entry.account, entry.amount.toString()])]
    )
    if (inserted.rows.length === 0) {
      const existing = await trx
        .from('ledger_transactions')
        .where({ kind, reference })
        .select('id')
        .firstOrFail()
      return { transactionId: existing.id, alreadyPosted: true }
    }

    return { transactionId: inserted.rows[0].transaction_id as string, alreadyPosted: false }
  }

  /** Sum of the account's entries (debits positive). Pass `client` to read inside a transaction. */
  async balanceOf(account: string, client: QueryClientContract = this.db.connection()) {
    const row = await client
      .from('ledger_entries')
      .where('account', account)
      .sum('amount_microstx as balance')
      .first()
    return parseMicrostx(row?.balance ?? 0)
  }

  /**
   * A withdrawal's debit of the provider's pending revenue: one conditional
   * statement (`… WHERE pending_revenue >= amount`), then the entries
   * (provider pending → payouts in flight), in the caller's transaction that
   * inserts the withdrawal. False, with nothing written, when the balance no
   * longer covers the amount.
   */
  async debitForWithdrawal(
    trx: TransactionClientContract,
    withdrawal: { id: string; providerId: string; amount: Microstx }
  ): Promise<boolean> {
    const { id, providerId, amount } = withdrawal
    const debited = await trx.rawQuery(
      `UPDATE providers SET
         pending_revenue_microstx = pending_revenue_microstx - ?,
         total_withdrawn_microstx = total_withdrawn_microstx + ?,
         updated_at = now()
       WHERE id = ? AND pending_revenue_microstx >= ?`,
      [amount.toString(), amount.toString(), providerId, amount.toString()]
    )
    if (debited.rowCount !== 1) return false
    await this.#insert(trx, {
      kind: 'withdrawal',
      reference: id,
      entries: [
        { account: accounts.providerPending(providerId), amount },
        { account: accounts.payoutsInFlight, amount: -amount },
      ],
    })
    return true
  }

  /** A failed withdrawal: the provider's pending revenue restored by a compensating posting. */
  async reverseWithdrawal(
    trx: TransactionClientContract,
    withdrawal: { id: string; providerId: string; amount: Microstx }
  ) {
    const { id, providerId, amount } = withdrawal
    return this.post(trx, {
      kind: 'withdrawal_reversal',
      reference: id,
      entries: [
        { account: accounts.payoutsInFlight, amount },
        { account: accounts.providerPending(providerId), amount: -amount },
      ],
    })
  }

  /** A withdrawal confirmed on chain: the payout leaves the platform wallet. */
  async payOutWithdrawal(
    trx: TransactionClientContract,
    withdrawal: { id: string; amount: Microstx }
  ) {
    return this.post(trx, {
      kind: 'withdrawal_payout',
      reference: withdrawal.id,
      entries: [
        { account: accounts.payoutsInFlight, amount: withdrawal.amount },
        { account: accounts.platformWallet, amount: -withdrawal.amount },
      ],
    })
  }

  /** The network fee of a withdrawal mined on chain (confirmed or aborted): the platform pays it. */
  async payWithdrawalFee(
    trx: TransactionClientContract,
    withdrawal: { id: string; fee: Microstx }
  ) {
    if (withdrawal.fee === 0n) return
    return this.post(trx, {
      kind: 'withdrawal_fee',
      reference: withdrawal.id,
      entries: [
        { account: accounts.networkFees, amount: withdrawal.fee },
        { account: accounts.platformWallet, amount: -withdrawal.fee },
      ],
    })
  }

  /**
   * The entries of a confirmed payment of `amount` (the amount actually
   * transferred: a payment above the price is accepted, docs/api.md#get-feedsid-paid-x402-v2): the platform wallet receives it; a provider's feed
   * splits it between the platform fee and the provider's pending revenue,
   * a built-in feed (providerId null) is all platform revenue.
   */
  paymentEntries({
    amount,
    providerId,
  }: {
    amount: Microstx
    providerId: string | null
  }): LedgerEntry[] {
    const { fee, providerShare } = splitPayment(amount)
    if (providerId === null) {
      return [
        { account: accounts.platformWallet, amount },
        { account: accounts.platformRevenue, amount: -amount },
      ]
    }
    const entries: LedgerEntry[] = [
      { account: accounts.platformWallet, amount },
      { account: accounts.providerPending(providerId), amount: -providerShare },
    ]
    // Below 34 µSTX the floored fee is zero, and a zero entry is not an entry.
    if (fee > 0n) entries.push({ account: accounts.platformFees, amount: -fee })
    return entries
  }
}

const PROVIDER_PENDING = /^provider:([0-9a-f-]{36}):pending$/
const WITHDRAWAL_KINDS = new Set(['withdrawal', 'withdrawal_reversal'])

/**
 * Keeps the providers' cached balances in step with their `pending` account,
 * in the posting's transaction: pending_revenue is its balance, lifetime_earned
 * what payments credited to it, total_withdrawn what withdrawals (less their
 * reversals) debited from it. Credits are negative: a credit to `pending`
 * raises the balance.
 */
async function updateProviderBalances(trx: TransactionClientContract, posting: Posting) {
  const changes = new Map<string, { pending: Microstx; earned: Microstx; withdrawn: Microstx }>()
  for (const entry of posting.entries) {
    const match = PROVIDER_PENDING.exec(entry.account)
    if (!match) continue
    const change = changes.get(match[1]) ?? { pending: 0n, earned: 0n, withdrawn: 0n }
    change.pending -= entry.amount
    if (posting.kind === 'payment') change.earned -= entry.amount
    if (WITHDRAWAL_KINDS.has(posting.kind)) change.withdrawn += entry.amount
    changes.set(match[1], change)
  }
  for (const [providerId, change] of changes) {
    const updated = await trx.rawQuery(
      `UPDATE providers SET
         pending_revenue_microstx = pending_revenue_microstx + ?,
         lifetime_earned_microstx = lifetime_earned_microstx + ?,
         total_withdrawn_microstx = total_withdrawn_microstx + ?,
         updated_at = now()
       WHERE id = ?`,
      [change.pending.toString(), change.earned.toString(), change.withdrawn.toString(), providerId]
    )
    if (updated.rowCount !== 1) {
      throw new E_INVALID_POSTING([
        posting.kind,
        posting.reference,
        `provider ${providerId} does not exist`,
      ])
    }
  }
}

function assertBalanced({ kind, reference, entries }: Posting) {
  if (entries.length === 0) throw new E_INVALID_POSTING([kind, reference, 'it has no entries'])
  const zero = entries.find((entry) => entry.amount === 0n)
  if (zero) {
    throw new E_INVALID_POSTING([kind, reference, `its entry on "${zero.account}" is zero`])
  }
  const total = entries.reduce((sum, entry) => sum + entry.amount, 0n)
  if (total !== 0n) throw new E_UNBALANCED_POSTING([kind, reference, total.toString()])
}

/**
 * Runs the deferred balance trigger now instead of at COMMIT. Lucid's
 * db.transaction() resolves even when COMMIT fails (knex's commit() does not
 * reject), so a refusal at commit would roll back unnoticed; here it fails
 * the caller's statement. The trigger stays deferred for the rest of the
 * transaction.
 */
async function assertCommittable(trx: TransactionClientContract) {
  await trx.rawQuery(
    'SET CONSTRAINTS ledger_entries_balanced IMMEDIATE; SET CONSTRAINTS ledger_entries_balanced DEFERRED'
  )
}
