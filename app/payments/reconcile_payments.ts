import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { StacksClient, type TransactionStatus } from '#chain/stacks_client'
import { PaymentLifecycle } from '#payments/payment_lifecycle'

export interface ReconcileOptions {
  /** Rows untouched for this long are this run's to finish. */
  graceSeconds: number
  /** A row unknown to the chain this long after it was claimed is no longer waiting on the node. */
  releaseAfterSeconds: number
  /**
   * A payment marked dropped (it may never settle: only its buyer spending
   * the nonce ends it) is looked at again this long after; graceSeconds when unset.
   */
  droppedRecheckSeconds?: number
  batchSize: number
}

type ReconcileOutcome = 'confirmed' | 'failed' | 'released' | 'pending'

/**
 * Finishes payments whose request is gone (the buyer left, a 202, a crash):
 * confirmed on chain → recorded and credited; failed on chain → failed; a
 * claim never handed to the node and still unknown to the chain → released
 * (nothing charged). A broadcast transfer the node reports dropped, or does
 * not know long after the claim (its broadcast timed out, or the node lost
 * its mempool), may yet be mined by another node: it stays pending, no
 * longer holding its payer's nonce, and fails only once that nonce went to
 * another transaction. It is never sent again: the buyer's request is over,
 * and only the buyer decides to spend its transfer now. Rows are leased by
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
         WHERE status IN ('claimed', 'broadcast')
           AND updated_at < clock_timestamp()
                            - make_interval(secs => CASE WHEN dropped_at IS NULL THEN ?::double precision ELSE ?::double precision END)
         ORDER BY updated_at
         LIMIT ?
         FOR UPDATE SKIP LOCKED
       )
       UPDATE payments p SET updated_at = clock_timestamp()
       FROM due WHERE p.txid = due.txid
       RETURNING p.txid, p.status, p.payer, p.nonce,
                 extract(epoch FROM (clock_timestamp() - p.claimed_at)) AS age_seconds`,
      [
        options.graceSeconds,
        options.droppedRecheckSeconds ?? options.graceSeconds,
        options.batchSize,
      ]
    )
    const rows = leased.rows as LeasedPayment[]
    const summary: Record<ReconcileOutcome, number> = {
      confirmed: 0,
      failed: 0,
      released: 0,
      pending: 0,
    }
    if (rows.length === 0) return summary

    const statuses = await this.stacks.getTransactions(rows.map((row) => row.txid))
    for (const row of rows) {
      const outcome = await this.#settle(row, statuses.get(row.txid), options)
      if (outcome !== 'already_confirmed') summary[outcome]++
    }
    return summary
  }

  async #settle(
    row: LeasedPayment,
    status: TransactionStatus | null | undefined,
    options: ReconcileOptions
  ): Promise<ReconcileOutcome | 'already_confirmed'> {
    const applied = await this.lifecycle.applyChainStatus(row.txid, status)
    if (applied !== 'pending') return applied
    if (status?.dropped) return this.#settleOutsideMempool(row)
    if (status || Number(row.age_seconds) < options.releaseAfterSeconds) return 'pending'
    if (row.status === 'claimed') {
      // Only from claimed: the request may have handed it over since the lease.
      const released = await this.lifecycle.release(row.txid, 'never_broadcast')
      return released ? 'released' : 'pending'
    }
    return this.#settleOutsideMempool(row)
  }

  /**
   * A broadcast transfer the node no longer holds may still be mined by
   * another node: it fails only once the payer's nonce was used by another
   * transaction. Meanwhile it is marked dropped, so the buyer may pay again
   * at that nonce. The nonce is read before the transfer is asked about again,
   * so one mined in between shows as mined, never as "nonce used".
   */
  async #settleOutsideMempool(row: LeasedPayment) {
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
  status: 'claimed' | 'broadcast'
  payer: string
  nonce: string | null
  age_seconds: string
}
