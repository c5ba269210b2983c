import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { type Microstx, parseMicrostx } from '#ledger/money'
import type { WithdrawalStatus } from '#withdrawals/withdrawal_api'

/** The spec's states: pending (debited; maybe signed, maybe sent), broadcast, confirmed, failed. */
export type { WithdrawalStatus }

export const UNSETTLED: WithdrawalStatus[] = ['pending', 'broadcast']

export interface Withdrawal {
  id: string
  providerId: string
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

  async findByKey(
    providerId: string,
    idempotencyKey: string,
    trx: TransactionClientContract
  ): Promise<Withdrawal | null> {
    const row = await trx
      .from('withdrawals')
      .where({ provider_id: providerId, idempotency_key: idempotencyKey })
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
