import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Database } from '@adonisjs/lucid/database'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { type Microstx, parseMicrostx } from '#ledger/money'
import { splitPayment } from '#ledger/split'
import {
  E_EXCEEDS_CREDITS,
  E_EXISTS_WITH_DIFFERENT_ENTRIES,
  E_INVALID_POSTING,
  E_UNBALANCED_POSTING,
} from '#ledger/exceptions'

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

/** The business events the ledger records. */
export type PostingKind =
  /** A confirmed feed payment (reference: its txid). */
  | 'payment'
  /** A provider's pending revenue debited for a withdrawal (reference: the withdrawal id), … */
  | 'withdrawal'
  /** … restored when it failed, … */
  | 'withdrawal_reversal'
  /** … paid out of the platform wallet when it confirmed, … */
  | 'withdrawal_payout'
  /** … and its network fee, paid by the platform once mined. */
  | 'withdrawal_fee'
  /**
   * A provider's pending revenue credited outside the payment flow (reference:
   * the provider id); only the tests' fixtures post it.
   */
  | 'opening_balance'

export interface Posting {
  kind: PostingKind
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
   * Records one business event, in a savepoint of the caller's transaction so
   * that a refused posting writes nothing even when the caller carries on.
   * Posting the same (kind, reference) again with the same entries posts
   * nothing and answers alreadyPosted, so a retried request cannot pay twice;
   * with other entries it throws E_EXISTS_WITH_DIFFERENT_ENTRIES. A posting
   * that would take a provider's pending revenue below zero throws
   * E_EXCEEDS_CREDITS.
   */
  async post(
    trx: TransactionClientContract,
    posting: Posting
  ): Promise<{ transactionId: string; alreadyPosted: boolean }> {
    assertBalanced(posting)
    return trx.transaction(async (savepoint) => {
      const inserted = await insert(savepoint, posting)
      if (inserted.alreadyPosted) {
        await assertSameEntries(savepoint, inserted.transactionId, posting)
        return inserted
      }
      await updateProviderBalances(savepoint, posting)
      await assertCommittable(savepoint)
      return inserted
    })
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
   * A withdrawal's debit of the provider's pending revenue (provider pending →
   * payouts in flight), in the caller's transaction that inserts the
   * withdrawal. False, with nothing written, when the balance no longer covers
   * the amount.
   */
  async debitForWithdrawal(
    trx: TransactionClientContract,
    withdrawal: { id: string; providerId: string; amount: Microstx }
  ): Promise<boolean> {
    const { id, providerId, amount } = withdrawal
    try {
      await this.post(trx, {
        kind: 'withdrawal',
        reference: id,
        entries: [
          { account: accounts.providerPending(providerId), amount },
          { account: accounts.payoutsInFlight, amount: -amount },
        ],
      })
      return true
    } catch (error) {
      if (error instanceof E_EXCEEDS_CREDITS) return false
      throw error
    }
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

async function insert(
  trx: TransactionClientContract,
  posting: Posting
): Promise<{ transactionId: string; alreadyPosted: boolean }> {
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

/**
 * Refuses a posting whose (kind, reference) exists with other entries,
 * compared as a multiset of (account, amount): the order does not matter.
 */
async function assertSameEntries(
  trx: TransactionClientContract,
  transactionId: string,
  posting: Posting
) {
  const rows = await trx
    .from('ledger_entries')
    .where('transaction_id', transactionId)
    .select('account', 'amount_microstx')
  const existing = rows.map((row) => ({
    account: row.account as string,
    amount: parseMicrostx(row.amount_microstx),
  }))
  if (entryKeys(existing).join('\n') === entryKeys(posting.entries).join('\n')) return
  logger.error(
    {
      kind: posting.kind,
      reference: posting.reference,
      existing_entries: entryKeys(existing),
      posted_entries: entryKeys(posting.entries),
    },
    'ledger posting exists with different entries'
  )
  throw new E_EXISTS_WITH_DIFFERENT_ENTRIES([posting.kind, posting.reference])
}

/** "account amount" per entry, sorted. */
function entryKeys(entries: LedgerEntry[]) {
  return entries.map((entry) => `${entry.account} ${entry.amount}`).sort()
}

const PROVIDER_PENDING = /^provider:([0-9a-f-]{36}):pending$/
const WITHDRAWAL_KINDS = new Set<PostingKind>(['withdrawal', 'withdrawal_reversal'])

/**
 * Keeps the providers' cached balances in step with their `pending` account,
 * in the posting's transaction: pending_revenue is its balance, lifetime_earned
 * what payments credited to it, total_withdrawn what withdrawals (less their
 * reversals) debited from it. Credits are negative: a credit to `pending`
 * raises the balance. The pending revenue may not go below zero: the update is
 * conditional, and the column's CHECK backs it.
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
       WHERE id = ? AND pending_revenue_microstx + ? >= 0`,
      [
        change.pending.toString(),
        change.earned.toString(),
        change.withdrawn.toString(),
        providerId,
        change.pending.toString(),
      ]
    )
    if (updated.rowCount === 1) continue
    const exists = await trx.from('providers').where('id', providerId).select('id').first()
    if (exists) {
      throw new E_EXCEEDS_CREDITS([
        posting.kind,
        posting.reference,
        accounts.providerPending(providerId),
      ])
    }
    throw new E_INVALID_POSTING([
      posting.kind,
      posting.reference,
      `provider ${providerId} does not exist`,
    ])
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
