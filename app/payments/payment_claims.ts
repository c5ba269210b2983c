import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'

export const MAX_CLAIMS_IN_FLIGHT_PER_PAYER = 5

export interface ClaimRequest {
  txid: string
  feedId: string
  resource: string
  payer: string
  amount: bigint
  network: string
  rawTx: Uint8Array
  paymentIdentifier?: string
  agentName?: string
}

export type PaymentStatus = 'claimed' | 'broadcast' | 'confirmed' | 'failed' | 'abandoned'

export interface PaymentRow {
  txid: string
  resource: string
  status: PaymentStatus
  payment_identifier: string | null
  response: unknown
}

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
 * processes and instances: the txid is the primary key, the insert is
 * committed before any network I/O, and an abandoned claim (the source failed,
 * nothing was broadcast) may be claimed again.
 */
@inject()
export class PaymentClaims {
  constructor(private db: Database) {}

  async claim(request: ClaimRequest): Promise<ClaimOutcome> {
    return this.db.transaction(async (trx) => {
      // Serialises claims of one payer so the in-flight cap holds under concurrency.
      await trx.rawQuery('SELECT pg_advisory_xact_lock(hashtext(?))', [`payer:${request.payer}`])
      const claimed = await trx.rawQuery(
        `INSERT INTO payments (txid, feed_id, resource, payer, amount_microstx, network, raw_tx, status,
                               payment_identifier, agent_name)
         SELECT ?, ?, ?, ?, ?, ?, ?, 'claimed', NULLIF(?, ''), NULLIF(?, '')
         WHERE (SELECT count(*) FROM payments WHERE payer = ? AND status IN ('claimed', 'broadcast')) < ?
         ON CONFLICT (txid) DO UPDATE SET
           status = 'claimed', resource = EXCLUDED.resource, feed_id = EXCLUDED.feed_id,
           payment_identifier = EXCLUDED.payment_identifier, agent_name = EXCLUDED.agent_name,
           claimed_at = now(), updated_at = now()
         WHERE payments.status = 'abandoned'
         RETURNING txid`,
        [
          request.txid,
          request.feedId,
          request.resource,
          request.payer,
          request.amount.toString(),
          request.network,
          Buffer.from(request.rawTx),
          request.paymentIdentifier ?? '',
          request.agentName ?? '',
          request.payer,
          MAX_CLAIMS_IN_FLIGHT_PER_PAYER,
        ]
      )
      if (claimed.rows.length === 1) return { outcome: 'claimed' }

      const existing: PaymentRow | null = await trx
        .from('payments')
        .where('txid', request.txid)
        .select('txid', 'resource', 'status', 'payment_identifier', 'response')
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

  /** The source failed before anything was broadcast: nothing charged, the tx may be presented again. */
  async abandon(txid: string, reason: string) {
    await this.db
      .from('payments')
      .where('txid', txid)
      .where('status', 'claimed')
      .update({ status: 'abandoned', failure_reason: reason, updated_at: new Date() })
  }
}
