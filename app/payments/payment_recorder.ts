import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionStatus } from '#chain/stacks_client'
import { Ledger } from '#ledger/ledger'
import { parseMicrostx } from '#ledger/money'
import { QueryLog } from '#stats/query_log'

/**
 * Moves a payment through its states. Confirmation is the one place money
 * moves: in one database transaction the payment becomes `confirmed`, its
 * double entry is posted and the call enters the query log — once, whoever
 * (the paywall or the reconcile job) gets there first.
 */
@inject()
export class PaymentRecorder {
  constructor(
    private db: Database,
    private ledger: Ledger,
    private queryLog: QueryLog
  ) {}

  /**
   * Stores the fetched response and moves the claim to `broadcast` in one
   * statement, committed before the broadcast, so a crash leaves a row the
   * reconcile job can finish and the buyer's retry can be answered from.
   */
  async markBroadcast(txid: string, served: { response: unknown; responseMs: number }) {
    await this.db
      .from('payments')
      .where('txid', txid)
      .where('status', 'claimed')
      .update({
        status: 'broadcast',
        response: JSON.stringify(served.response),
        response_ms: served.responseMs,
        updated_at: new Date(),
      })
  }

  async markFailed(txid: string, reason: string) {
    await this.#move(txid, ['claimed', 'broadcast'], 'failed', reason)
  }

  /** The node did not take the transaction: nothing charged, it may be presented again. */
  async release(txid: string, reason: string) {
    await this.#move(txid, ['claimed', 'broadcast'], 'abandoned', reason)
  }

  async setReceipt(txid: string, tokenHash: string) {
    await this.db.from('payments').where('txid', txid).update({ receipt_token_hash: tokenHash })
  }

  /**
   * Records what the chain says of a settling payment: confirmed → recorded
   * (once: `already_confirmed` when another request or job got there first),
   * failed on chain → failed; unknown or still pending → nothing changes.
   */
  async applyChainStatus(
    txid: string,
    status: TransactionStatus | null | undefined
  ): Promise<'confirmed' | 'already_confirmed' | 'failed' | 'pending'> {
    if (status?.confirmed) {
      return (await this.confirm(txid, status.blockHeight)) ? 'confirmed' : 'already_confirmed'
    }
    if (status?.failed) {
      await this.markFailed(txid, status.status)
      return 'failed'
    }
    return 'pending'
  }

  /** Returns true when this call confirmed it (false: it was already confirmed). */
  async confirm(txid: string, blockHeight: number | null): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const updated = await trx.rawQuery(
        `UPDATE payments p SET status = 'confirmed', block_height = ?, updated_at = now()
         FROM feeds f
         WHERE p.txid = ? AND p.status IN ('claimed', 'broadcast') AND f.id = p.feed_id
         RETURNING p.feed_id, p.payer, p.amount_microstx, p.agent_name, p.response_ms, f.provider_id`,
        [blockHeight ?? 0, txid]
      )
      const row = updated.rows[0]
      if (!row) return false
      const amount = parseMicrostx(row.amount_microstx)
      await this.ledger.post(trx, {
        kind: 'payment',
        reference: txid,
        entries: this.ledger.paymentEntries({ amount, providerId: row.provider_id }),
      })
      await this.queryLog.recordPaidCall(trx, {
        feedId: row.feed_id,
        txid,
        payer: row.payer,
        agentName: row.agent_name ?? undefined,
        price: amount,
        responseMs: row.response_ms ?? 0,
      })
      return true
    })
  }

  async #move(txid: string, from: string[], to: string, reason?: string) {
    await this.db
      .from('payments')
      .where('txid', txid)
      .whereIn('status', from)
      .update({ status: to, ...(reason ? { failure_reason: reason } : {}), updated_at: new Date() })
  }
}
