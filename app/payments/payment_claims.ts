import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { parseMicrostx } from '#ledger/money'
import type { PaymentInFlight, VerifiedPayment } from '#payments/verify_payment'

export const MAX_CLAIMS_IN_FLIGHT_PER_PAYER = 5

/** What a transfer is redeemed for: a paid feed call, or a `/facilitator/settle` request. */
export type PaymentPurpose = 'feed' | 'facilitator'

export interface ClaimRequest {
  purpose: PaymentPurpose
  /** The verified transfer: what is stored of it (txid, payer, amount, fee, nonce, bytes). */
  payment: Pick<VerifiedPayment, 'txid' | 'payer' | 'amount' | 'fee' | 'nonce' | 'bytes'>
  /** The feed paid for (purpose `feed` only). */
  feedId: string | null
  resource: string
  network: string
  paymentIdentifier?: string
  agentName?: string
}

export type PaymentStatus = 'claimed' | 'broadcast' | 'confirmed' | 'failed' | 'abandoned'

export interface PaymentRow {
  txid: string
  purpose: PaymentPurpose
  resource: string
  status: PaymentStatus
  payment_identifier: string | null
  /** The exact JSON text served for it (feed payments, once fetched). */
  response: string | null
}

const ROW_COLUMNS = ['txid', 'purpose', 'resource', 'status', 'payment_identifier', 'response']

export type ClaimOutcome =
  /** This request owns the payment now: fetch, broadcast, settle. */
  | { outcome: 'claimed' }
  /** Another request holds it (claimed or broadcast): answer settlement_pending. */
  | { outcome: 'in_flight'; payment: PaymentRow }
  /** Already redeemed: replay only for the same payment-identifier, else payment_already_used. */
  | { outcome: 'redeemed'; payment: PaymentRow }
  | { outcome: 'failed'; payment: PaymentRow }
  /** The payer already has the maximum of payments in flight: 429. */
  | { outcome: 'too_many_in_flight' }

/**
 * Claims a signed transaction for one request, exactly once across requests,
 * processes, instances and purposes (the paywall and the facilitator share
 * this table): the txid is the primary key, the insert is committed before
 * any network I/O, and an abandoned claim (nothing was broadcast) may be
 * claimed again.
 */
@inject()
export class PaymentClaims {
  constructor(private db: Database) {}

  async claim(request: ClaimRequest): Promise<ClaimOutcome> {
    const { payment } = request
    return this.db.transaction(async (trx) => {
      // Serialises claims of one payer so the in-flight cap holds under concurrency.
      await trx.rawQuery('SELECT pg_advisory_xact_lock(hashtext(?))', [`payer:${payment.payer}`])
      const claimed = await trx.rawQuery(
        `INSERT INTO payments (txid, purpose, feed_id, resource, payer, amount_microstx, fee_microstx, nonce,
                               network, raw_tx, status, payment_identifier, agent_name)
         SELECT ?, ?, NULLIF(?, '')::uuid, ?, ?, ?, ?, ?, ?, ?, 'claimed', NULLIF(?, ''), NULLIF(?, '')
         WHERE (SELECT count(*) FROM payments WHERE payer = ? AND status IN ('claimed', 'broadcast')) < ?
         ON CONFLICT (txid) DO UPDATE SET
           status = 'claimed', purpose = EXCLUDED.purpose, resource = EXCLUDED.resource,
           feed_id = EXCLUDED.feed_id, payment_identifier = EXCLUDED.payment_identifier,
           agent_name = EXCLUDED.agent_name, fee_microstx = EXCLUDED.fee_microstx,
           nonce = EXCLUDED.nonce, failure_reason = NULL, claimed_at = now(), updated_at = now()
         WHERE payments.status = 'abandoned'
         RETURNING txid`,
        [
          payment.txid,
          request.purpose,
          request.feedId ?? '',
          request.resource,
          payment.payer,
          payment.amount.toString(),
          payment.fee.toString(),
          payment.nonce.toString(),
          request.network,
          Buffer.from(payment.bytes),
          request.paymentIdentifier ?? '',
          request.agentName ?? '',
          payment.payer,
          MAX_CLAIMS_IN_FLIGHT_PER_PAYER,
        ]
      )
      if (claimed.rows.length === 1) return { outcome: 'claimed' }

      const existing: PaymentRow | null = await trx
        .from('payments')
        .where('txid', payment.txid)
        .select(...ROW_COLUMNS)
        .first()
      if (!existing) return { outcome: 'too_many_in_flight' }
      switch (existing.status) {
        case 'claimed':
        case 'broadcast':
          return { outcome: 'in_flight', payment: existing }
        case 'confirmed':
          return { outcome: 'redeemed', payment: existing }
        case 'failed':
          return { outcome: 'failed', payment: existing }
        case 'abandoned':
          // Only reachable when the payer is at the cap: the re-claim was refused.
          return { outcome: 'too_many_in_flight' }
        default: {
          const unknownStatus: never = existing.status
          throw new Error(`unknown payment status ${String(unknownStatus)}`)
        }
      }
    })
  }

  /** The payer's other payments this service holds in flight, for the account check. */
  async inFlightOf(payer: string, exceptTxid: string): Promise<PaymentInFlight[]> {
    const rows: { nonce: string | null; amount_microstx: string; fee_microstx: string | null }[] =
      await this.db
        .from('payments')
        .where('payer', payer)
        .whereIn('status', ['claimed', 'broadcast'])
        .whereNot('txid', exceptTxid)
        .select('nonce', 'amount_microstx', 'fee_microstx')
    return rows.map((row) => ({
      nonce: row.nonce === null ? null : BigInt(row.nonce),
      amount: parseMicrostx(row.amount_microstx),
      fee: parseMicrostx(row.fee_microstx ?? 0),
    }))
  }

  async find(txid: string): Promise<PaymentRow | null> {
    return this.db
      .from('payments')
      .where('txid', txid)
      .select(...ROW_COLUMNS)
      .first()
  }

  /** Nothing was broadcast (refused, or the source failed): nothing charged, the tx may be presented again. */
  async abandon(txid: string, reason: string) {
    await this.db
      .from('payments')
      .where('txid', txid)
      .where('status', 'claimed')
      .update({ status: 'abandoned', failure_reason: reason, updated_at: new Date() })
  }
}
