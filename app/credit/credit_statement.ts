import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { accounts } from '#ledger/accounts'
import type { PostingKind } from '#ledger/ledger'
import { type Microstx, parseMicrostx } from '#ledger/money'
import type { WithdrawalStatus } from '#withdrawals/withdrawal_records'

/** One movement of a wallet's credit; `amount` is signed: + adds to the credit, − takes from it. */
export type StatementLine =
  | { kind: 'top_up'; id: bigint; amount: Microstx; at: Date; txid: string }
  | {
      kind: 'call'
      id: bigint
      amount: Microstx
      at: Date
      callId: string
      feedId: string
      resource: string
    }
  | {
      kind: 'refund' | 'refund_reversal'
      id: bigint
      amount: Microstx
      at: Date
      refundId: string
      status: WithdrawalStatus
      txid: string | null
    }

const LINE_KINDS: Partial<Record<PostingKind, StatementLine['kind']>> = {
  credit_top_up: 'top_up',
  credit_call: 'call',
  withdrawal: 'refund',
  withdrawal_reversal: 'refund_reversal',
}

/**
 * A wallet's statement: the entries of its credit account (top-ups, calls,
 * refunds and restored refunds), newest first, with what each came from. The
 * ledger is the record, so the statement always adds up to the balance.
 * Paged by keyset on the entry's id (ever increasing): `before` is the last
 * id a page showed.
 */
@inject()
export class CreditStatement {
  constructor(private db: Database) {}

  async page(address: string, { before, size }: { before?: bigint; size: number }) {
    const query = this.db
      .from('ledger_entries as e')
      .join('ledger_transactions as t', 't.id', 'e.transaction_id')
      .joinRaw(`LEFT JOIN credit_calls c ON t.kind = ? AND c.id::text = t.reference`, [
        'credit_call',
      ])
      .joinRaw(`LEFT JOIN withdrawals w ON t.kind = ANY(?) AND w.id::text = t.reference`, [
        ['withdrawal', 'withdrawal_reversal'],
      ])
      .where('e.account', accounts.buyerCredit(address).name)
      .select(
        'e.id',
        'e.amount_microstx',
        't.kind',
        't.reference',
        't.created_at',
        'c.feed_id',
        'c.resource',
        'w.status',
        'w.txid'
      )
      .orderBy('e.id', 'desc')
      .limit(size + 1)
    if (before !== undefined) query.where('e.id', '<', before.toString())
    const rows = await query
    return {
      lines: rows.slice(0, size).map(toLine),
      more: rows.length > size,
    }
  }
}

function toLine(row: Record<string, any>): StatementLine {
  const kind = LINE_KINDS[row.kind as PostingKind]
  const common = {
    id: BigInt(row.id),
    // The account's entries are the platform's side: a credit (−) is what the wallet gains.
    amount: -parseMicrostx(row.amount_microstx),
    at: row.created_at as Date,
  }
  switch (kind) {
    case 'top_up':
      return { kind, ...common, txid: row.reference }
    case 'call':
      return {
        kind,
        ...common,
        callId: row.reference,
        feedId: row.feed_id,
        resource: row.resource,
      }
    case 'refund':
    case 'refund_reversal':
      return { kind, ...common, refundId: row.reference, status: row.status, txid: row.txid }
    default:
      throw new Error(`a ${row.kind} posting on a credit account`)
  }
}
