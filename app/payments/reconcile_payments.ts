import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { StacksClient, type TransactionStatus } from '#chain/stacks_client'
import { transactionVerdict } from '#chain/transaction_verdict'
import { Clock } from '#core/clock'
import { PaymentsConfig } from '#payments/define_config'
import { PaymentLifecycle, type UnsettledPayment } from '#payments/payment_lifecycle'

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

/** What a run did with each row; `unsettled`: it could not settle the row now (logged). */
type ReconcileOutcome = 'confirmed' | 'failed' | 'released' | 'pending' | 'unsettled'

/**
 * Finishes payments whose request is gone (the buyer left, a 202, a crash):
 * confirmed on chain → recorded and credited; failed on chain → failed; a
 * claim never handed to the node and still unknown to the chain → released
 * (nothing charged). A broadcast transfer the node reports dropped, or does
 * not know long after the claim (its broadcast timed out, or the node lost
 * its mempool), may yet be mined by another node: it stays pending, no
 * longer holding its payer's nonce, and fails only once that nonce went to
 * another transaction. It is never sent again: the buyer's request is over,
 * and only the buyer decides to spend its transfer now. What the node's
 * answers mean is transactionVerdict's (as for withdrawals); rows are leased
 * through PaymentLifecycle, by the Clock, so several instances never work on
 * the same row (docs/architecture.md#leases).
 */
@inject()
export class ReconcilePayments {
  constructor(
    private stacks: StacksClient,
    private lifecycle: PaymentLifecycle,
    private clock: Clock,
    private config: PaymentsConfig
  ) {}

  async run(options: ReconcileOptions) {
    const lease = await this.lifecycle.leaseUnsettled({
      graceSeconds: options.graceSeconds,
      droppedRecheckSeconds: options.droppedRecheckSeconds ?? options.graceSeconds,
      batchSize: options.batchSize,
      leaseMs: this.config.reconcile.leaseMs,
    })
    const summary: Record<ReconcileOutcome, number> = {
      confirmed: 0,
      failed: 0,
      released: 0,
      pending: 0,
      unsettled: 0,
    }
    try {
      if (lease.rows.length === 0) return summary
      const statuses = await this.stacks.getTransactions(lease.rows.map((row) => row.txid))
      for (const row of lease.rows) {
        const outcome = await this.#settle(row, statuses.get(row.txid), options).catch(
          (error: unknown) => {
            // One row that cannot be settled now (a refused confirmation, a node error) is
            // left for the next run; it does not hold up the rest of the batch.
            logger.error({ err: error, txid: row.txid }, 'reconcile could not settle a payment')
            return 'unsettled' as const
          }
        )
        if (outcome !== 'already_confirmed') summary[outcome]++
      }
      return summary
    } finally {
      await lease.end()
    }
  }

  async #settle(
    row: UnsettledPayment,
    status: TransactionStatus | null | undefined,
    options: ReconcileOptions
  ): Promise<ReconcileOutcome | 'already_confirmed'> {
    const verdict = transactionVerdict({
      status,
      nonce: null,
      outOfSightMs: this.clock.now() - row.claimed_at.getTime(),
      graceMs: options.releaseAfterSeconds * 1_000,
    })
    switch (verdict.kind) {
      case 'dropped':
        return this.#settleOutsideMempool(row, status)
      case 'unknown':
        if (!verdict.graceOver) return 'pending'
        if (row.status === 'claimed') {
          // Only from claimed: the request may have handed it over since the lease.
          const released = await this.lifecycle.release(row.txid, 'never_broadcast')
          return released ? 'released' : 'pending'
        }
        return this.#settleOutsideMempool(row, status)
      default:
        return this.lifecycle.applyVerdict(row.txid, verdict)
    }
  }

  /**
   * A broadcast transfer the node no longer holds may still be mined by
   * another node: it fails only once the payer's nonce was used by another
   * transaction. Meanwhile it is marked dropped, so the buyer may pay again
   * at that nonce. The nonce is read before the transfer is asked about again,
   * so one mined in between shows as mined, never as "nonce used".
   */
  async #settleOutsideMempool(row: UnsettledPayment, status: TransactionStatus | null | undefined) {
    await this.lifecycle.markDropped(row.txid)
    if (row.nonce === null) return 'pending'
    const { lastExecutedNonce } = await this.stacks.getNonces(row.payer)
    const answers = { nonce: BigInt(row.nonce), lastExecutedNonce, outOfSightMs: null, graceMs: 0 }
    if (transactionVerdict({ ...answers, status }).kind !== 'nonce_used') return 'pending'
    const again = await this.stacks.getTransaction(row.txid)
    return this.lifecycle.applyVerdict(row.txid, transactionVerdict({ ...answers, status: again }))
  }
}
