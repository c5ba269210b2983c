import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { type LedgerAccount, accounts } from '#ledger/accounts'
import { type Microstx, parseMicrostx } from '#ledger/money'
import type { WithdrawalStatus } from '#withdrawals/withdrawal_api'

/** The spec's states: pending (debited; maybe signed, maybe sent), broadcast, confirmed, failed. */
export type { WithdrawalStatus }

export const UNSETTLED: WithdrawalStatus[] = ['pending', 'broadcast']

/**
 * Whose money a withdrawal pays out: a provider's pending revenue, or a
 * wallet's credit — a refund, paid to that same wallet (docs/credit.md#refunds).
 * The database holds exactly one of the two.
 */
export type WithdrawalOwner =
  { providerId: string; creditAddress: null } | { providerId: null; creditAddress: string }

/** The ledger account a withdrawal debits and a failed one restores. */
export function sourceAccount(owner: {
  providerId: string | null
  creditAddress: string | null
}): LedgerAccount {
  if (owner.providerId !== null) return accounts.providerPending(owner.providerId)
  if (owner.creditAddress !== null) return accounts.buyerCredit(owner.creditAddress)
  throw new Error('a withdrawal belongs to a provider or to a credit wallet')
}

export interface Withdrawal {
  id: string
  /** The provider whose pending revenue it pays out; null for a refund. */
  providerId: string | null
  /** The wallet whose credit it refunds (to that wallet); null for a provider's withdrawal. */
  creditAddress: string | null
  idempotencyKey: string
  amount: Microstx
  destination: string
  memo: string
  status: WithdrawalStatus
  senderAddress: string | null
  nonce: bigint | null
  fee: Microstx | null
  txid: string | null
  rawTx: Uint8Array | null
  blockHeight: number | null
  failureReason: string | null
  broadcastAttempts: number
  /** When the node first reported the transaction dropped (watched for a grace period). */
  droppedAt: Date | null
  /** A sender's claim on sending the bytes, until then. */
  sendingUntil: Date | null
  createdAt: Date
  updatedAt: Date
}

export interface WithdrawalEvent {
  fromStatus: WithdrawalStatus | null
  toStatus: WithdrawalStatus
  detail: string
  at: Date
}

/** Reads of the withdrawals table; every status change goes through WithdrawalLifecycle. */
@inject()
export class WithdrawalRecords {
  constructor(private db: Database) {}

  async find(id: string, trx?: TransactionClientContract): Promise<Withdrawal | null> {
    const row = await (trx ?? this.db).from('withdrawals').where('id', id).first()
    return row ? toWithdrawal(row) : null
  }

  /** The owner's withdrawal under an idempotency key (unique per provider, and per refunded wallet). */
  async findByKey(
    owner: WithdrawalOwner,
    idempotencyKey: string,
    client: QueryClientContract = this.db.connection()
  ): Promise<Withdrawal | null> {
    const row = await client
      .from('withdrawals')
      .where(
        owner.providerId === null
          ? { credit_address: owner.creditAddress }
          : { provider_id: owner.providerId }
      )
      .where('idempotency_key', idempotencyKey)
      .first()
    return row ? toWithdrawal(row) : null
  }

  /** The provider's withdrawals, newest first. */
  async listOf(providerId: string, limit: number): Promise<Withdrawal[]> {
    const rows = await this.db
      .from('withdrawals')
      .where('provider_id', providerId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
    return rows.map(toWithdrawal)
  }

  async historyOf(id: string): Promise<WithdrawalEvent[]> {
    const rows = await this.db
      .from('withdrawal_events')
      .where('withdrawal_id', id)
      .orderBy('id')
      .select('from_status', 'to_status', 'detail', 'created_at')
    return rows.map((row) => ({
      fromStatus: row.from_status,
      toStatus: row.to_status,
      detail: row.detail,
      at: row.created_at,
    }))
  }
}

export function toWithdrawal(row: Record<string, any>): Withdrawal {
  return {
    id: row.id,
    providerId: row.provider_id,
    creditAddress: row.credit_address,
    idempotencyKey: row.idempotency_key,
    amount: parseMicrostx(row.amount_microstx),
    destination: row.destination_address,
    memo: row.memo,
    status: row.status,
    senderAddress: row.sender_address,
    nonce: row.nonce === null ? null : BigInt(row.nonce),
    fee: row.fee_microstx === null ? null : parseMicrostx(row.fee_microstx),
    txid: row.txid,
    rawTx: row.raw_tx === null ? null : new Uint8Array(row.raw_tx),
    blockHeight: row.block_height === null ? null : Number(row.block_height),
    failureReason: row.failure_reason,
    broadcastAttempts: row.broadcast_attempts,
    droppedAt: row.dropped_at,
    sendingUntil: row.sending_until,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
