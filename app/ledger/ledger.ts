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
  providerPending: (providerId: string) => `provider:${providerId}:pending`,
  providerWithdrawn: (providerId: string) => `provider:${providerId}:withdrawn`,
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

    const transactionId: string = inserted.rows[0].transaction_id
    await updateProviderBalances(trx, posting)
    await assertCommittable(trx)
    return { transactionId, alreadyPosted: false }
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
   * The entries of a confirmed payment of `amount` (the amount actually
   * transferred, §11): the platform wallet receives it; a provider's feed
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

const PROVIDER_ACCOUNT = /^provider:([0-9a-f-]{36}):(pending|withdrawn)$/

/**
 * Keeps the providers' cached balances (pending_revenue, lifetime_earned,
 * total_withdrawn) in step with their ledger accounts, in the posting's
 * transaction. Credits are negative: a credit to `pending` raises the balance.
 */
async function updateProviderBalances(trx: TransactionClientContract, posting: Posting) {
  const changes = new Map<string, { pending: Microstx; earned: Microstx; withdrawn: Microstx }>()
  for (const entry of posting.entries) {
    const match = PROVIDER_ACCOUNT.exec(entry.account)
    if (!match) continue
    const change = changes.get(match[1]) ?? { pending: 0n, earned: 0n, withdrawn: 0n }
    if (match[2] === 'pending') {
      change.pending -= entry.amount
      if (posting.kind === 'payment') change.earned -= entry.amount
    } else {
      change.withdrawn += entry.amount
    }
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
