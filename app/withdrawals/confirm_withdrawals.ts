import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Database } from '@adonisjs/lucid/database'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient, type TransactionStatus } from '#chain/stacks_client'
import { Clock } from '#core/clock'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import { WithdrawalDispatcher } from '#withdrawals/withdrawal_dispatcher'
import { WithdrawalLifecycle } from '#withdrawals/withdrawal_lifecycle'
import { toWithdrawal, type Withdrawal } from '#withdrawals/withdrawal_records'

export interface ConfirmSummary {
  confirmed: number
  failed: number
  rebroadcast: number
  pending: number
}

/**
 * `withdrawals:confirm`, every minute: finishes every signed withdrawal from
 * what the chain says (rows leased with FOR UPDATE SKIP LOCKED, statuses in
 * one batched /extended/v1/tx/multiple call), then dispatches the queued ones.
 * - success in a block → confirmed;
 * - abort_* → failed, pending revenue restored (the fee is paid, the nonce used);
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
    private db: Database,
    private stacks: StacksClient,
    private wallet: PlatformWallet,
    private lifecycle: WithdrawalLifecycle,
    private dispatcher: WithdrawalDispatcher,
    private clock: Clock,
    private config: WithdrawalsConfig
  ) {}

  async run(): Promise<ConfirmSummary> {
    const summary: ConfirmSummary = { confirmed: 0, failed: 0, rebroadcast: 0, pending: 0 }
    const leased = await this.#lease()
    if (leased.length > 0) {
      // The nonces before the statuses: a transaction mined in between shows as mined, never
      // as "not found, its nonce used" (which would restore a withdrawal that was paid).
      const { lastExecutedNonce } = await this.stacks.getNonces(this.wallet.address)
      const statuses = await this.stacks.getTransactions(leased.map((row) => row.txid!))
      for (const withdrawal of leased) {
        const outcome = await this.#settle(
          withdrawal,
          statuses.get(withdrawal.txid!),
          lastExecutedNonce
        )
        summary[outcome]++
      }
    }
    await this.dispatcher.dispatch()
    return summary
  }

  async #settle(
    withdrawal: Withdrawal,
    status: TransactionStatus | null | undefined,
    executed: bigint | null
  ): Promise<keyof ConfirmSummary> {
    const { id } = withdrawal
    const mined = await this.#settleMined(id, status)
    if (mined) return mined
    if (status && !status.dropped) {
      if (withdrawal.status === 'pending') {
        await this.lifecycle.markBroadcast(id, withdrawal.txid!, 'the node has it in its mempool')
      }
      return 'pending'
    }

    // Dropped, or never seen: its nonce may have gone to another transaction. Asked once more
    // before money is restored: a restore of a mined withdrawal would pay it twice.
    if (executed !== null && withdrawal.nonce! <= executed) {
      const again = await this.stacks.getTransaction(withdrawal.txid!)
      const minedSince = await this.#settleMined(id, again)
      if (minedSince) return minedSince
      if (again && !again.dropped) return 'pending'
      await this.lifecycle.fail(id, 'its nonce was used by another transaction', {
        mined: false,
        nonceUsed: true,
      })
      return 'failed'
    }
    if (status) {
      const since = withdrawal.droppedSince?.getTime()
      if (since === undefined) {
        await this.lifecycle.noteDropped(id, status.status)
        return 'pending'
      }
      if (this.clock.now() - since < this.config.confirm.droppedGraceMs) return 'pending'
    }
    if (withdrawal.broadcastAttempts >= this.config.confirm.warnAfterAttempts) {
      logger.warn(
        { withdrawal_id: id, attempts: withdrawal.broadcastAttempts, txid: withdrawal.txid },
        'withdrawal still unsettled: the node keeps refusing or losing it'
      )
    }
    const sent = await this.dispatcher.send(withdrawal)
    if (sent === 'busy') return 'pending'
    return sent === 'failed' ? 'failed' : 'rebroadcast'
  }

  /** Mined: confirmed → confirmed; aborted → failed, its fee paid. Null while not mined. */
  async #settleMined(id: string, status: TransactionStatus | null | undefined) {
    if (status?.confirmed) {
      await this.lifecycle.confirm(id, status.blockHeight)
      return 'confirmed' as const
    }
    if (status?.failed) {
      await this.lifecycle.fail(id, `aborted on chain (${status.status})`, { mined: true })
      return 'failed' as const
    }
    return null
  }

  /**
   * Signed unsettled rows untouched for the grace period and not being sent by
   * anyone, leased by bumping updated_at (times from the Clock).
   */
  async #lease(): Promise<Withdrawal[]> {
    const now = this.clock.now()
    const leased = await this.db.rawQuery(
      `WITH due AS (
         SELECT id FROM withdrawals
          WHERE status IN ('pending', 'broadcast') AND txid IS NOT NULL
            AND updated_at < ? AND (sending_until IS NULL OR sending_until < ?)
          ORDER BY nonce
          LIMIT ?
          FOR UPDATE SKIP LOCKED
       )
       UPDATE withdrawals w SET updated_at = ?
         FROM due WHERE w.id = due.id
       RETURNING w.*`,
      [
        new Date(now - this.config.confirm.graceSeconds * 1_000),
        new Date(now),
        this.config.confirm.batchSize,
        new Date(now),
      ]
    )
    return (leased.rows as Record<string, unknown>[])
      .map(toWithdrawal)
      .sort((a, b) => (a.nonce! < b.nonce! ? -1 : 1))
  }
}
