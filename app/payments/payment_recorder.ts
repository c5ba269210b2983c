import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionStatus } from '#chain/stacks_client'
import { Ledger } from '#ledger/ledger'
import { parseMicrostx } from '#ledger/money'
import type { SettlementOutcome } from '#payments/settlement/payment_settlement'
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
   * Stores the exact response text to serve (none for a facilitator
   * settlement) and moves the claim to `broadcast` in one statement,
   * committed before the broadcast, so a crash leaves a row the reconcile job
   * can finish and the buyer's retry can be answered from. False when the
   * claim is no longer this request's (the reconcile job settled it).
   */
  async markBroadcast(
    txid: string,
    served: { response: string; responseMs: number } | null
  ): Promise<boolean> {
    const updated: { txid: string }[] = await this.db
      .from('payments')
      .where('txid', txid)
      .where('status', 'claimed')
      .update({
        status: 'broadcast',
        broadcast_at: new Date(),
        response: served?.response ?? null,
        response_ms: served?.responseMs ?? null,
        updated_at: new Date(),
      })
      .returning('txid')
    return updated.length === 1
  }

  /**
   * Records what settling a payment this service broadcast came to: confirmed
   * → recorded (and credited); rejected by the node or failed on chain →
   * failed; rate-limited (never taken) → released; still pending → nothing
   * (the reconcile job finishes it). Answers confirm()'s verdict, or null.
   */
  async record(txid: string, outcome: SettlementOutcome) {
    switch (outcome.state) {
      case 'confirmed':
        return this.confirm(txid, outcome.blockHeight)
      case 'rejected':
        await this.markFailed(txid, outcome.code)
        return null
      case 'failed':
        await this.markFailed(txid, outcome.reason)
        return null
      case 'rate_limited':
        await this.release(txid, 'rate_limited')
        return null
      case 'pending':
        return null
      default: {
        const unknownOutcome: never = outcome
        throw new Error(`unknown settlement outcome ${JSON.stringify(unknownOutcome)}`)
      }
    }
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
   * failed on chain → failed; unknown or still pending → nothing changes. A
   * claim this service never handed to the node that the chain has anyway
   * was broadcast by someone else: it is refused, never credited.
   */
  async applyChainStatus(
    txid: string,
    status: TransactionStatus | null | undefined
  ): Promise<'confirmed' | 'already_confirmed' | 'failed' | 'pending'> {
    if (status?.confirmed) {
      const confirmed = await this.confirm(txid, status.blockHeight)
      if (confirmed !== 'not_broadcast') return confirmed
    }
    if (status?.confirmed || status?.failed) {
      await this.#move(txid, ['claimed'], 'failed', 'transaction_already_broadcast')
      await this.#move(txid, ['broadcast'], 'failed', status.status)
      return 'failed'
    }
    return 'pending'
  }

  /**
   * Records the confirmation of a payment this service broadcast; a feed
   * payment is credited and logged in the same transaction. `already_confirmed`:
   * another request or job got there first; `not_broadcast`: the row is not
   * settling (never handed to the node, or settled otherwise).
   */
  async confirm(
    txid: string,
    blockHeight: number | null
  ): Promise<'confirmed' | 'already_confirmed' | 'not_broadcast'> {
    return this.db.transaction(async (trx) => {
      const updated = await trx.rawQuery(
        `UPDATE payments p SET status = 'confirmed', block_height = ?, updated_at = now()
         WHERE p.txid = ? AND p.status = 'broadcast'
         RETURNING p.purpose, p.feed_id, p.payer, p.amount_microstx, p.agent_name, p.response_ms,
                   (SELECT f.provider_id FROM feeds f WHERE f.id = p.feed_id) AS provider_id`,
        [blockHeight ?? 0, txid]
      )
      const row = updated.rows[0]
      if (!row) {
        const current = await trx.from('payments').where('txid', txid).select('status').first()
        return current?.status === 'confirmed' ? 'already_confirmed' : 'not_broadcast'
      }
      if (row.purpose !== 'feed') return 'confirmed'
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
      return 'confirmed'
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
