import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { StacksClient } from '#chain/stacks_client'
import { PaymentLifecycle } from '#payments/payment_lifecycle'

export interface ReconcileOptions {
  /** Rows untouched for this long are this run's to finish. */
  graceSeconds: number
  /** A row unknown to the chain this long after its last move was never broadcast (or was dropped). */
  releaseAfterSeconds: number
  batchSize: number
}

/**
 * Finishes payments whose request is gone (the buyer left, a 202, a crash):
 * confirmed on chain → recorded and credited; failed on chain → failed;
 * dropped by the node → failed once the payer's nonce went to another
 * transaction (until then it may still be mined); never seen by the chain →
 * released (nothing charged). Rows are leased by
 * bumping updated_at under FOR UPDATE SKIP LOCKED, so several instances
 * never work on the same row, and no lock is held across network calls.
 */
@inject()
export class ReconcilePayments {
  constructor(
    private db: Database,
    private stacks: StacksClient,
    private lifecycle: PaymentLifecycle
  ) {}

  async run(options: ReconcileOptions) {
    const leased = await this.db.rawQuery(
      `WITH due AS (
         SELECT txid FROM payments
         WHERE status IN ('claimed', 'broadcast') AND updated_at < clock_timestamp() - make_interval(secs => ?)
         ORDER BY updated_at
         LIMIT ?
         FOR UPDATE SKIP LOCKED
       )
       UPDATE payments p SET updated_at = clock_timestamp()
       FROM due WHERE p.txid = due.txid
       RETURNING p.txid, p.status, p.payer, p.nonce,
                 extract(epoch FROM (clock_timestamp() - p.claimed_at)) AS age_seconds`,
      [options.graceSeconds, options.batchSize]
    )
    const rows = leased.rows as LeasedPayment[]
    const summary = { confirmed: 0, failed: 0, released: 0, pending: 0 }
    if (rows.length === 0) return summary

    const statuses = await this.stacks.getTransactions(rows.map((row) => row.txid))
    for (const row of rows) {
      const status = statuses.get(row.txid)
      const applied = await this.lifecycle.applyChainStatus(row.txid, status)
      const outcome =
        applied === 'pending' && status?.dropped ? await this.#settleDropped(row) : applied
      if (outcome === 'confirmed' || outcome === 'failed') {
        summary[outcome]++
      } else if (outcome === 'pending') {
        if (!status && Number(row.age_seconds) >= options.releaseAfterSeconds) {
          await this.lifecycle.releaseUntaken(row.txid, 'never_seen_on_chain')
          summary.released++
        } else {
          summary.pending++
        }
      }
    }
    return summary
  }

  /**
   * A transfer the node dropped from its mempool may still be mined by
   * another node: it fails only once the payer's nonce was used by another
   * transaction. Meanwhile it is marked dropped, so the buyer may pay again
   * at that nonce. The nonce is read before the transfer is asked about again,
   * so one mined in between shows as mined, never as "nonce used".
   */
  async #settleDropped(row: LeasedPayment) {
    await this.lifecycle.markDropped(row.txid)
    if (row.nonce === null) return 'pending'
    const { lastExecutedNonce } = await this.stacks.getNonces(row.payer)
    if (lastExecutedNonce === null || BigInt(row.nonce) > lastExecutedNonce) return 'pending'
    const again = await this.stacks.getTransaction(row.txid)
    const applied = await this.lifecycle.applyChainStatus(row.txid, again)
    if (applied !== 'pending') return applied
    await this.lifecycle.fail(row.txid, 'its nonce was used by another transaction')
    return 'failed'
  }
}

interface LeasedPayment {
  txid: string
  status: string
  payer: string
  nonce: string | null
  age_seconds: string
}
