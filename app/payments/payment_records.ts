import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { parseMicrostx } from '#ledger/money'
import type { PaymentInFlight } from '#payments/verify_payment'

/**
 * What a transfer is redeemed for: a paid feed call, a `/facilitator/settle`
 * request, or prepaid credit (docs/credit.md#top-ups).
 */
export type PaymentPurpose = 'feed' | 'facilitator' | 'credit_top_up'

/** The states of PaymentLifecycle: claimed → broadcast → confirmed / failed / released. */
export type PaymentStatus = 'claimed' | 'broadcast' | 'confirmed' | 'failed' | 'released'

/** Settling: claimed by a request, or handed to the node and not yet final. */
export const IN_FLIGHT_STATUSES: PaymentStatus[] = ['claimed', 'broadcast']

export interface PaymentRow {
  txid: string
  purpose: PaymentPurpose
  resource: string
  status: PaymentStatus
  payer: string
  payment_identifier: string | null
  /**
   * The exact JSON text served for it: a feed payment's once fetched, before
   * the broadcast; a top-up's once confirmed.
   */
  response: string | null
  receipt_token_hash: string | null
}

const ROW_COLUMNS = [
  'txid',
  'purpose',
  'resource',
  'status',
  'payer',
  'payment_identifier',
  'response',
  'receipt_token_hash',
]

/** Reads of the redemption table; every status change goes through PaymentLifecycle. */
@inject()
export class PaymentRecords {
  constructor(private db: Database) {}

  async find(txid: string, trx?: TransactionClientContract): Promise<PaymentRow | null> {
    return (trx ?? this.db)
      .from('payments')
      .where('txid', txid)
      .select(...ROW_COLUMNS)
      .first()
  }

  /**
   * The payer's other payments this service holds in flight, for the account
   * check; a dropped one (PaymentLifecycle.markDropped) no longer holds its nonce.
   */
  async inFlightOf(payer: string, exceptTxid: string): Promise<PaymentInFlight[]> {
    const rows: { nonce: string | null; amount_microstx: string; fee_microstx: string | null }[] =
      await this.db
        .from('payments')
        .where('payer', payer)
        .whereIn('status', IN_FLIGHT_STATUSES)
        .whereNull('dropped_at')
        .whereNot('txid', exceptTxid)
        .select('nonce', 'amount_microstx', 'fee_microstx')
    return rows.map((row) => ({
      nonce: row.nonce === null ? null : BigInt(row.nonce),
      amount: parseMicrostx(row.amount_microstx),
      fee: parseMicrostx(row.fee_microstx ?? 0),
    }))
  }
}
