import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Database } from '@adonisjs/lucid/database'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import { prepared } from '#core/prepared'
import { type LedgerAccount, accounts } from '#ledger/accounts'
import { type Microstx, parseMicrostx } from '#ledger/money'
import { splitPayment } from '#ledger/split'
import {
  E_EXCEEDS_CREDITS,
  E_EXISTS_WITH_DIFFERENT_ENTRIES,
  E_INVALID_POSTING,
  E_UNBALANCED_POSTING,
} from '#ledger/exceptions'

/** Positive = debit, negative = credit. */
export interface LedgerEntry {
  account: LedgerAccount
  amount: Microstx
}

/** The business events the ledger records. */
export type PostingKind =
  /** A confirmed feed payment (reference: its txid). */
  | 'payment'
  /**
   * A provider's pending revenue, or a wallet's credit for a refund, debited
   * for a withdrawal (reference: the withdrawal id), …
   */
  | 'withdrawal'
  /** … restored when it failed, … */
  | 'withdrawal_reversal'
  /** … paid out of the platform wallet when it confirmed, … */
  | 'withdrawal_payout'
  /** … and its network fee, paid by the platform once mined. */
  | 'withdrawal_fee'
  /** A confirmed credit top-up (reference: its txid): the wallet's credit grows. */
  | 'credit_top_up'
  /** A call paid from credit (reference: the credit call's id), split like a payment. */
  | 'credit_call'
  /**
   * A provider's pending revenue credited outside the payment flow (reference:
   * the provider id); only the tests' fixtures post it.
   */
  | 'opening_balance'

/** The postings of a withdrawal's life, all referencing the withdrawal's id. */
export const WITHDRAWAL_POSTING_KINDS = [
  'withdrawal',
  'withdrawal_reversal',
  'withdrawal_payout',
  'withdrawal_fee',
] as const satisfies PostingKind[]

/** The postings that pay a provider for a call, on chain or from credit: its lifetime earnings. */
export const EARNING_POSTING_KINDS = ['payment', 'credit_call'] as const satisfies PostingKind[]

/** The postings that move a provider's pending revenue for a withdrawal: its total withdrawn. */
export const WITHDRAWN_POSTING_KINDS = [
  'withdrawal',
  'withdrawal_reversal',
] as const satisfies PostingKind[]

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
  constructor(
    private db: Database,
    private clock: Clock
  ) {}

  /**
   * Records one business event, in a savepoint of the caller's transaction so
   * that a refused posting writes nothing even when the caller carries on.
   * Posting the same (kind, reference) again with the same entries posts
   * nothing and answers alreadyPosted, so a retried request cannot pay twice;
   * with other entries it throws E_EXISTS_WITH_DIFFERENT_ENTRIES. A posting
   * that would take an account that may not go negative (a provider's pending
   * revenue, the payouts in flight) below zero throws E_EXCEEDS_CREDITS.
   * `savepoint: false` for a caller whose whole transaction fails with a
   * refused posting (a payment's confirmation): two statements fewer.
   */
  async post(
    trx: TransactionClientContract,
    posting: Posting,
    { savepoint = true }: { savepoint?: boolean } = {}
  ): Promise<{ transactionId: string; alreadyPosted: boolean }> {
    assertBalanced(posting)
    const record = async (client: TransactionClientContract) => {
      await lockTouched(client, posting)
      const inserted = await insert(client, posting)
      if (inserted.alreadyPosted) {
        await assertSameEntries(client, inserted.transactionId, posting)
        return inserted
      }
      await assertCommittable(client, posting)
      await this.#updateProviderBalances(client, posting)
      return inserted
    }
    return savepoint ? trx.transaction(record) : record(trx)
  }

  /**
   * Keeps the providers' cached balances in step with their `pending` account,
   * in the posting's transaction: pending_revenue is its balance, lifetime_earned
   * what calls paid to it (on chain or from credit), total_withdrawn what withdrawals (less their
   * reversals) debited from it. Credits are negative: a credit to `pending`
   * raises the balance. The ledger has already refused a posting that takes
   * the account below zero; the column's CHECK backs it.
   */
  async #updateProviderBalances(trx: TransactionClientContract, posting: Posting) {
    const changes = new Map<string, { pending: Microstx; earned: Microstx; withdrawn: Microstx }>()
    const withdrawn = (WITHDRAWN_POSTING_KINDS as readonly PostingKind[]).includes(posting.kind)
    const earned = (EARNING_POSTING_KINDS as readonly PostingKind[]).includes(posting.kind)
    for (const { account, amount } of posting.entries) {
      if (account.kind !== 'provider_pending' || account.providerId === null) continue
      const change = changes.get(account.providerId) ?? { pending: 0n, earned: 0n, withdrawn: 0n }
      change.pending -= amount
      if (earned) change.earned -= amount
      if (withdrawn) change.withdrawn += amount
      changes.set(account.providerId, change)
    }
    for (const [providerId, change] of changes) {
      await trx.rawQuery(
        `UPDATE providers SET
           pending_revenue_microstx = pending_revenue_microstx + ?,
           lifetime_earned_microstx = lifetime_earned_microstx + ?,
           total_withdrawn_microstx = total_withdrawn_microstx + ?,
           updated_at = ?
         WHERE id = ?`,
        [
          change.pending.toString(),
          change.earned.toString(),
          change.withdrawn.toString(),
          new Date(this.clock.now()),
          providerId,
        ]
      )
    }
  }

  /** Sum of the account's entries (debits positive). Pass `client` to read inside a transaction. */
  async balanceOf(account: LedgerAccount, client: QueryClientContract = this.db.connection()) {
    const row = await client
      .from('ledger_entries')
      .where('account', account.name)
      .sum('amount_microstx as balance')
      .first()
    return parseMicrostx(row?.balance ?? 0)
  }

  /**
   * A withdrawal's debit of what it pays out — a provider's pending revenue,
   * or a wallet's credit for a refund (`source`) — into the payouts in
   * flight, in the caller's transaction that inserts the withdrawal. False,
   * with nothing written, when the balance no longer covers the amount.
   */
  async debitForWithdrawal(
    trx: TransactionClientContract,
    withdrawal: { id: string; source: LedgerAccount; amount: Microstx }
  ): Promise<boolean> {
    const { id, source, amount } = withdrawal
    try {
      await this.post(trx, {
        kind: 'withdrawal',
        reference: id,
        entries: [
          { account: source, amount },
          { account: accounts.payoutsInFlight, amount: -amount },
        ],
      })
      return true
    } catch (error) {
      if (error instanceof E_EXCEEDS_CREDITS) return false
      throw error
    }
  }

  /** A failed withdrawal: its source (pending revenue or credit) restored by a compensating posting. */
  async reverseWithdrawal(
    trx: TransactionClientContract,
    withdrawal: { id: string; source: LedgerAccount; amount: Microstx }
  ) {
    const { id, source, amount } = withdrawal
    return this.post(trx, {
      kind: 'withdrawal_reversal',
      reference: id,
      entries: [
        { account: accounts.payoutsInFlight, amount },
        { account: source, amount: -amount },
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
   * transferred: a payment above the price is accepted, docs/api.md#get-feedsid-paid-x402-v2): the platform wallet receives it — or, for a call paid
   * from credit, the buyer's credit account (`paidFrom`) gives it; a
   * provider's feed splits it between the platform fee and the provider's
   * pending revenue, a built-in feed (providerId null) is all platform revenue.
   */
  paymentEntries({
    amount,
    providerId,
    paidFrom = accounts.platformWallet,
  }: {
    amount: Microstx
    providerId: string | null
    paidFrom?: LedgerAccount
  }): LedgerEntry[] {
    const { fee, providerShare } = splitPayment(amount)
    if (providerId === null) {
      return [
        { account: paidFrom, amount },
        { account: accounts.platformRevenue, amount: -amount },
      ]
    }
    const entries: LedgerEntry[] = [
      { account: paidFrom, amount },
      { account: accounts.providerPending(providerId), amount: -providerShare },
    ]
    // Below 34 µSTX the floored fee is zero, and a zero entry is not an entry.
    if (fee > 0n) entries.push({ account: accounts.platformFees, amount: -fee })
    return entries
  }
}

/**
 * Locks what the posting changes before any entry is inserted, in one global
 * order: the providers by id (their cached balances), then the accounts that
 * keep totals by name (the entries' trigger updates them). A withdrawal
 * request locks its provider first too, so a payment and a withdrawal of the
 * same provider, or a withdrawal and a reversal on the payouts in flight,
 * wait for each other instead of deadlocking. An account opened by this
 * posting is new to everyone; a provider's is covered by its provider's lock.
 * The providers' locks are NO KEY UPDATE: they do not block the KEY SHARE
 * locks that inserting a feed or a withdrawal takes on its provider. A
 * provider's own account is not locked by name: every posting that touches
 * it holds its provider's lock already (a provider feed's payment takes one
 * lock, a built-in feed's none). A posting whose only such row is one
 * account (a built-in feed bought from credit) takes no lock first: the
 * entries' trigger locks that row as it updates it, and there is no order to
 * keep with nothing else.
 */
async function lockTouched(trx: TransactionClientContract, { entries }: Posting) {
  const providerIds = [...new Set(entries.flatMap(({ account }) => account.providerId ?? []))]
  const limited = [
    ...new Set(
      entries.flatMap(({ account }) =>
        account.mayGoNegative || account.providerId !== null ? [] : account.name
      )
    ),
  ]
  if (providerIds.length === 0 && limited.length === 1) return
  if (providerIds.length > 0) {
    await trx.rawQuery(
      'SELECT id FROM providers WHERE id = ANY(?::uuid[]) ORDER BY id FOR NO KEY UPDATE',
      [providerIds]
    )
  }
  if (limited.length > 0) {
    await trx.rawQuery(
      'SELECT name FROM ledger_accounts WHERE name = ANY(?::text[]) ORDER BY name FOR UPDATE',
      [limited]
    )
  }
}

async function insert(
  trx: TransactionClientContract,
  posting: Posting
): Promise<{ transactionId: string; alreadyPosted: boolean }> {
  const { kind, reference, entries } = posting

  const opened = [...new Map(entries.map(({ account }) => [account.name, account])).values()]

  // The accounts the ledger does not hold yet (from their typed values: the
  // database checks each against its kind), the transaction and its entries
  // in one statement: no entry is inserted when (kind, reference) was posted before.
  let inserted
  try {
    inserted = await prepared(
      trx.rawQuery(
        `WITH opened AS (
         INSERT INTO ledger_accounts (name, kind, provider_id, wallet_address, may_go_negative)
         VALUES ${opened.map(() => `(?, ?, NULLIF(?, '')::uuid, NULLIF(?, ''), ?)`).join(', ')}
         ON CONFLICT (name) DO NOTHING
       ), posted AS (
         INSERT INTO ledger_transactions (kind, reference) VALUES (?, ?)
         ON CONFLICT (kind, reference) DO NOTHING
         RETURNING id
       )
       INSERT INTO ledger_entries (transaction_id, account, amount_microstx)
       SELECT posted.id, entry.account, entry.amount
         FROM posted, (VALUES ${entries.map(() => '(?, ?::bigint)').join(', ')}) AS entry (account, amount)
       RETURNING transaction_id`,
        [
          ...opened.flatMap((account) => [
            account.name,
            account.kind,
            account.providerId ?? '',
            account.walletAddress ?? '',
            account.mayGoNegative,
          ]),
          kind,
          reference,
          ...entries.flatMap((entry) => [entry.account.name, entry.amount.toString()]),
        ]
      )
    )
  } catch (error) {
    // check_violation: a name, kind or limit that disagree; foreign_key_violation: no such provider.
    const { code, constraint } = error as { code?: string; constraint?: string }
    if (code !== '23514' && code !== '23503') throw error
    throw new E_INVALID_POSTING(
      [kind, reference, `an entry names no valid account (${constraint})`],
      {
        cause: error,
      }
    )
  }
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
  const existing = rows.map((row) => `${row.account} ${parseMicrostx(row.amount_microstx)}`).sort()
  if (existing.join('\n') === entryKeys(posting.entries).join('\n')) return
  logger.error(
    {
      kind: posting.kind,
      reference: posting.reference,
      existing_entries: existing,
      posted_entries: entryKeys(posting.entries),
    },
    'ledger posting exists with different entries'
  )
  throw new E_EXISTS_WITH_DIFFERENT_ENTRIES([posting.kind, posting.reference])
}

/** "account amount" per entry, sorted. */
function entryKeys(entries: LedgerEntry[]) {
  return entries.map((entry) => `${entry.account.name} ${entry.amount}`).sort()
}

function assertBalanced({ kind, reference, entries }: Posting) {
  if (entries.length === 0) throw new E_INVALID_POSTING([kind, reference, 'it has no entries'])
  const zero = entries.find((entry) => entry.amount === 0n)
  if (zero) {
    throw new E_INVALID_POSTING([kind, reference, `its entry on "${zero.account.name}" is zero`])
  }
  const total = entries.reduce((sum, entry) => sum + entry.amount, 0n)
  if (total !== 0n) throw new E_UNBALANCED_POSTING([kind, reference, total.toString()])
}

/**
 * Runs the deferred triggers (the transaction balances, no account that may
 * not go negative does) now instead of at COMMIT, so that a refusal fails
 * the posting — an account below zero is E_EXCEEDS_CREDITS, which callers
 * answer or carry on from — rather than the caller's commit. The triggers
 * stay deferred for the rest of the transaction.
 */
async function assertCommittable(trx: TransactionClientContract, posting: Posting) {
  try {
    await trx.rawQuery(
      `SET CONSTRAINTS ledger_entries_balanced, ledger_accounts_not_negative IMMEDIATE;
       SET CONSTRAINTS ledger_entries_balanced, ledger_accounts_not_negative DEFERRED`
    )
  } catch (error) {
    const { constraint, detail } = error as { constraint?: string; detail?: string }
    if (constraint === 'ledger_accounts_not_negative' && detail) {
      throw new E_EXCEEDS_CREDITS([posting.kind, posting.reference, detail], { cause: error })
    }
    throw error
  }
}
