import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient, type TransactionStatus } from '#chain/stacks_client'
import { transactionVerdict } from '#chain/transaction_verdict'
import { Clock } from '#core/clock'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import { WithdrawalDispatcher } from '#withdrawals/withdrawal_dispatcher'
import { WithdrawalLifecycle } from '#withdrawals/withdrawal_lifecycle'
import type { Withdrawal } from '#withdrawals/withdrawal_records'

export interface ConfirmSummary {
  confirmed: number
  failed: number
  rebroadcast: number
  pending: number
  /** Withdrawals it could not settle now (logged), left for the next run. */
  unsettled: number
}

/**
 * `withdrawals:confirm`, every minute: finishes every signed withdrawal from
 * what the chain says (rows leased through WithdrawalLifecycle, by the Clock —
 * docs/architecture.md#leases; statuses in one batched /extended/v1/tx/multiple
 * call; their meaning is transactionVerdict's, as for payments), then
 * dispatches the queued ones.
 * - success in a block → confirmed;
 * - abort_* → failed, pending revenue (a refund: credit) restored (the fee is
 *   paid, the nonce used);
 * - dropped_* → watched for `droppedGraceMs`, then sent again with the same
 *   bytes, or failed and restored when another transaction used its nonce;
 * - unknown to the node (never arrived, or the process stopped between the
 *   commit and the broadcast) → sent again with the same bytes;
 * - in the mempool → broadcast (an earlier unknown outcome was a success).
 * Only a definite answer restores money; the same bytes can only ever pay once.
 */
@inject()
export class ConfirmWithdrawals {
  constructor(
    private stacks: StacksClient,
    private wallet: PlatformWallet,
    private lifecycle: WithdrawalLifecycle,
    private dispatcher: WithdrawalDispatcher,
    private clock: Clock,
    private config: WithdrawalsConfig
  ) {}

  async run(): Promise<ConfirmSummary> {
    const summary: ConfirmSummary = {
      confirmed: 0,
      failed: 0,
      rebroadcast: 0,
      pending: 0,
      unsettled: 0,
    }
    const { graceSeconds, batchSize, leaseMs } = this.config.confirm
    const lease = await this.lifecycle.leaseUnsettled({ graceSeconds, batchSize, leaseMs })
    try {
      if (lease.rows.length > 0) {
        // The nonces before the statuses: a transaction mined in between shows as mined, never
        // as "not found, its nonce used" (which would restore a withdrawal that was paid).
        const { lastExecutedNonce } = await this.stacks.getNonces(this.wallet.address)
        const statuses = await this.stacks.getTransactions(lease.rows.map((row) => row.txid!))
        for (const withdrawal of lease.rows) {
          const outcome = await this.#settle(
            withdrawal,
            statuses.get(withdrawal.txid!),
            lastExecutedNonce
          ).catch((error: unknown) => {
            // One withdrawal that cannot be settled now (a node error, a refused posting) is
            // left for the next run; it does not hold up the rest of the batch or the dispatch.
            logger.error(
              { err: error, withdrawal_id: withdrawal.id, txid: withdrawal.txid },
              'withdrawals:confirm could not settle a withdrawal'
            )
            return 'unsettled' as const
          })
          summary[outcome]++
        }
      }
    } finally {
      await lease.end()
    }
    await this.dispatcher.dispatch()
    return summary
  }

  async #settle(
    withdrawal: Withdrawal,
    status: TransactionStatus | null | undefined,
    lastExecutedNonce: bigint | null
  ): Promise<keyof ConfirmSummary> {
    const droppedAt = withdrawal.droppedAt?.getTime()
    const answers = {
      nonce: withdrawal.nonce,
      lastExecutedNonce,
      outOfSightMs: droppedAt === undefined ? null : this.clock.now() - droppedAt,
      graceMs: this.config.confirm.droppedGraceMs,
    }
    let verdict = transactionVerdict({ ...answers, status })
    if (verdict.kind === 'nonce_used') {
      // Asked once more before money is restored: a restore of a mined withdrawal would pay it twice.
      verdict = transactionVerdict({
        ...answers,
        status: await this.stacks.getTransaction(withdrawal.txid!),
      })
    }
    if (verdict.kind === 'dropped') {
      if (droppedAt === undefined) {
        await this.lifecycle.noteDropped(withdrawal.id, verdict.status)
        return 'pending'
      }
      if (!verdict.graceOver) return 'pending'
    } else if (verdict.kind !== 'unknown') {
      return this.lifecycle.applyVerdict(withdrawal, verdict)
    }

    // Dropped past the grace, or never seen, its nonce still free: the same bytes again.
    if (withdrawal.broadcastAttempts >= this.config.confirm.warnAfterAttempts) {
      logger.warn(
        {
          withdrawal_id: withdrawal.id,
          attempts: withdrawal.broadcastAttempts,
          txid: withdrawal.txid,
        },
        'withdrawal still unsettled: the node keeps refusing or losing it'
      )
    }
    const sent = await this.dispatcher.send(withdrawal)
    if (sent === 'busy') return 'pending'
    return sent === 'failed' ? 'failed' : 'rebroadcast'
  }
}
