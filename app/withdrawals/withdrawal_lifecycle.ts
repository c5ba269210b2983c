import { randomUUID } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import logger from '@adonisjs/core/services/logger'
import { NONCE_USED_REASON, type TransactionVerdict } from '#chain/transaction_verdict'
import { Clock } from '#core/clock'
import { type Lease, leaseHeld, RowLeases } from '#core/row_leases'
import { Ledger } from '#ledger/ledger'
import type { Microstx } from '#ledger/money'
import { metrics } from '#metrics/metrics'
import { PlatformNonces } from '#withdrawals/platform_nonces'
import {
  sourceAccount,
  toWithdrawal,
  UNSETTLED,
  type Withdrawal,
  type WithdrawalOwner,
  type WithdrawalStatus,
} from '#withdrawals/withdrawal_records'

export interface NewWithdrawal {
  owner: WithdrawalOwner
  idempotencyKey: string
  amount: Microstx
  destination: string
  /** The platform's memo prefix (`tb`): the memo is `tb-w-<id>`, a refund's `tb-r-<id>`. */
  memoPrefix: string
}

/**
 * A sender's claim on one withdrawal's bytes. `attempt` is the attempt count
 * it set: a later claim (the lease ran out, a clock ahead) counts another, so
 * what this sender learns no longer speaks for the row alone.
 */
export interface SendClaim {
  txid: string
  attempt: number
  /** 0: these bytes never left this service before this claim. */
  previousAttempts: number
}

export interface SignedTransfer {
  sender: string
  nonce: bigint
  fee: Microstx
  txid: string
  bytes: Uint8Array
}

/**
 * The one owner of a withdrawal's state — a provider's, or a refund of a
 * wallet's credit (docs/credit.md#refunds); nothing else writes `withdrawals.status`.
 * Every transition is one database transaction that also writes its ledger
 * posting and an event in `withdrawal_events`:
 *
 *   (none) ─request→ pending (debited) ─sign→ pending (nonce, bytes, txid) ─accepted→ broadcast
 *   pending | broadcast ─confirm→ confirmed  (payout and network fee posted)
 *   pending | broadcast ─fail→ failed        (its source restored; fee posted if mined)
 *   pending (signed) ─unsign→ pending        (the node refused the nonce: signed again later)
 *
 * Sending is claimed first (claimSend): one sender at a time, and the attempt
 * is counted before the bytes leave, so "never sent" is never a guess.
 */
@inject()
export class WithdrawalLifecycle {
  constructor(
    private db: Database,
    private ledger: Ledger,
    private nonces: PlatformNonces,
    private clock: Clock,
    private leases: RowLeases
  ) {}

  /**
   * (none) → pending: the conditional debit of its source (the provider's
   * pending revenue, or the wallet's credit for a refund) and the row, in the
   * caller's transaction. Null, with nothing written, when the balance no
   * longer covers the amount.
   */
  async request(trx: TransactionClientContract, request: NewWithdrawal) {
    const id = randomUUID()
    const debited = await this.ledger.debitForWithdrawal(trx, {
      id,
      source: sourceAccount(request.owner),
      amount: request.amount,
    })
    if (!debited) return null
    const [row] = await trx
      .table('withdrawals')
      .insert({
        id,
        provider_id: request.owner.providerId,
        credit_address: request.owner.creditAddress,
        idempotency_key: request.idempotencyKey,
        amount_microstx: request.amount.toString(),
        destination_address: request.destination,
        memo: `${request.memoPrefix}-${request.owner.creditAddress === null ? 'w' : 'r'}-${id.slice(0, 8)}`,
      })
      .returning('*')
    await this.#event(trx, id, null, 'pending', `requested ${request.amount} µSTX`)
    return toWithdrawal(row)
  }

  /** pending → pending with its transaction: the bytes, txid and nonce committed before any broadcast. */
  async sign(trx: TransactionClientContract, id: string, transfer: SignedTransfer) {
    await trx
      .from('withdrawals')
      .where({ id, status: 'pending' })
      .whereNull('nonce')
      .update({
        sender_address: transfer.sender,
        nonce: transfer.nonce.toString(),
        fee_microstx: transfer.fee.toString(),
        txid: transfer.txid,
        raw_tx: Buffer.from(transfer.bytes),
        updated_at: this.#now(),
      })
    await this.#event(
      trx,
      id,
      'pending',
      'pending',
      `signed 0x${transfer.txid} with nonce ${transfer.nonce}, fee ${transfer.fee} µSTX`
    )
  }

  /**
   * Claims the sending of a signed withdrawal's bytes for `leaseMs`, counting
   * the attempt, committed before the POST. Null when the row is settled, holds
   * other bytes, or another sender's claim is live.
   */
  async claimSend(id: string, txid: string, leaseMs: number): Promise<SendClaim | null> {
    return this.db.transaction(async (trx) => {
      const row = await this.#lock(trx, id)
      const now = this.clock.now()
      if (!row || !UNSETTLED.includes(row.status) || row.txid !== txid) return null
      if (leaseHeld(row.sendingUntil, now)) return null
      await trx
        .from('withdrawals')
        .where('id', id)
        .update({
          broadcast_attempts: row.broadcastAttempts + 1,
          last_broadcast_at: new Date(now),
          sending_until: new Date(now + leaseMs),
        })
      return { txid, attempt: row.broadcastAttempts + 1, previousAttempts: row.broadcastAttempts }
    })
  }

  /**
   * pending (signed) → pending (queued), by the sender holding the claim: the
   * node refused bytes that never left before for their nonce; they are dropped
   * and the withdrawal signed again. The nonce goes back unless it is used.
   * False, changing nothing, when the claim is no longer the last one.
   */
  async unsign(id: string, reason: string, claim: SendClaim, options: { nonceUsed: boolean }) {
    return this.db.transaction(async (trx) => {
      const row = await this.#lock(trx, id)
      if (row?.status !== 'pending' || row.nonce === null || !holds(row, claim)) return false
      await trx.from('withdrawals').where('id', id).update({
        sender_address: null,
        nonce: null,
        fee_microstx: null,
        txid: null,
        raw_tx: null,
        broadcast_attempts: 0,
        sending_until: null,
        updated_at: this.#now(),
      })
      if (!options.nonceUsed && row.senderAddress) {
        await this.nonces.release(trx, row.senderAddress, row.nonce)
      }
      await this.#event(trx, id, 'pending', 'pending', `refused (${reason}): to be signed again`)
      return true
    })
  }

  /** pending → broadcast (or a broadcast one sent again): the node took these bytes (`txid`). */
  async markBroadcast(id: string, txid: string, detail: string) {
    await this.db.transaction(async (trx) => {
      const row = await this.#lock(trx, id)
      if (!row || !UNSETTLED.includes(row.status) || row.txid !== txid) return
      await trx.from('withdrawals').where('id', id).update({
        status: 'broadcast',
        dropped_at: null,
        sending_until: null,
        updated_at: this.#now(),
      })
      await this.#event(trx, id, row.status, 'broadcast', detail)
    })
  }

  /**
   * Records a send whose outcome is unknown, or a refusal of bytes sent
   * before: the row stays; the claim ends unless a later one took over.
   */
  async noteAttempt(id: string, claim: SendClaim, detail: string) {
    await this.db.transaction(async (trx) => {
      const row = await this.#lock(trx, id)
      if (!row) return
      if (holds(row, claim)) {
        await trx
          .from('withdrawals')
          .where('id', id)
          .update({ sending_until: null, updated_at: this.#now() })
      }
      await this.#event(trx, id, row.status, row.status, detail)
    })
  }

  /** Notes when the node first reported the transaction dropped (re-checked for a grace period). */
  async noteDropped(id: string, status: string) {
    const at = this.#now()
    await this.db.transaction(async (trx) => {
      const row = await this.#lock(trx, id)
      if (!row || !UNSETTLED.includes(row.status) || row.droppedAt) return
      await trx.from('withdrawals').where('id', id).update({ dropped_at: at })
      await this.#event(trx, id, row.status, row.status, `${status}: watching it`)
    })
  }

  /**
   * Applies the chain's verdict on a signed withdrawal: confirmed → confirmed;
   * aborted → failed, its fee paid; its nonce used by another transaction →
   * failed, the nonce not given back; in the mempool → broadcast. Dropped or
   * unknown → nothing changes here (withdrawals:confirm watches or sends it again).
   */
  async applyVerdict(
    withdrawal: Withdrawal,
    verdict: TransactionVerdict
  ): Promise<'confirmed' | 'failed' | 'pending'> {
    switch (verdict.kind) {
      case 'confirmed':
        await this.confirm(withdrawal.id, verdict.blockHeight)
        return 'confirmed'
      case 'aborted':
        await this.fail(withdrawal.id, `aborted on chain (${verdict.status})`, { mined: true })
        return 'failed'
      case 'nonce_used':
        await this.fail(withdrawal.id, NONCE_USED_REASON, { mined: false, nonceUsed: true })
        return 'failed'
      case 'in_mempool':
        if (withdrawal.status === 'pending') {
          await this.markBroadcast(
            withdrawal.id,
            withdrawal.txid!,
            'the node has it in its mempool'
          )
        }
        return 'pending'
      default:
        return 'pending'
    }
  }

  /**
   * Leases the signed unsettled withdrawals untouched for graceSeconds and
   * not being sent by anyone to one withdrawals:confirm run, in nonce order
   * (docs/architecture.md#leases).
   */
  async leaseUnsettled(options: {
    graceSeconds: number
    batchSize: number
    leaseMs: number
  }): Promise<Lease<Withdrawal>> {
    const lease = await this.leases.take<Record<string, unknown>>({
      table: 'withdrawals',
      key: 'id',
      due: (now) => ({
        sql: `status IN ('pending', 'broadcast') AND txid IS NOT NULL AND updated_at <= ?
              AND (sending_until IS NULL OR sending_until <= ?)`,
        bindings: [new Date(now - options.graceSeconds * 1_000), new Date(now)],
      }),
      orderBy: 'nonce',
      limit: options.batchSize,
      returning: 't.*',
      leaseMs: options.leaseMs,
    })
    const rows = lease.rows.map(toWithdrawal).sort((a, b) => (a.nonce! < b.nonce! ? -1 : 1))
    return { ...lease, rows }
  }

  /** pending | broadcast → confirmed: the payout and its network fee leave the platform wallet. */
  async confirm(id: string, blockHeight: number | null) {
    return this.db.transaction(async (trx) => {
      const row = await this.#lock(trx, id)
      if (!row || !UNSETTLED.includes(row.status)) return false
      await trx.from('withdrawals').where('id', id).update({
        status: 'confirmed',
        block_height: blockHeight,
        dropped_at: null,
        updated_at: this.#now(),
      })
      await this.ledger.payOutWithdrawal(trx, row)
      await this.ledger.payWithdrawalFee(trx, { id, fee: row.fee ?? 0n })
      await this.#event(trx, id, row.status, 'confirmed', `mined in block ${blockHeight}`)
      return true
    })
  }

  /**
   * pending | broadcast → failed, its source (the provider's pending revenue,
   * or the wallet's credit) restored by a compensating posting. `mined`: the transaction was mined and aborted (the
   * fee is paid, the nonce used); otherwise the nonce is given back unless
   * `nonceUsed` (another transaction took it). Refused while a sender's claim
   * is live, unless the caller holds it (`claim`), and, for a sender, once a
   * later claim took over.
   */
  async fail(
    id: string,
    reason: string,
    outcome: { mined: boolean; nonceUsed?: boolean; claim?: SendClaim }
  ) {
    return this.db.transaction(async (trx) => {
      const row = await this.#lock(trx, id)
      if (!row || !UNSETTLED.includes(row.status)) return false
      if (outcome.claim) {
        if (!holds(row, outcome.claim)) return false
      } else if (leaseHeld(row.sendingUntil, this.clock.now())) {
        return false
      }
      await trx.from('withdrawals').where('id', id).update({
        status: 'failed',
        failure_reason: reason,
        sending_until: null,
        updated_at: this.#now(),
      })
      await this.ledger.reverseWithdrawal(trx, { ...row, source: sourceAccount(row) })
      if (outcome.mined) await this.ledger.payWithdrawalFee(trx, { id, fee: row.fee ?? 0n })
      const nonceFree = !outcome.mined && !outcome.nonceUsed
      if (row.nonce !== null && row.senderAddress && nonceFree) {
        await this.nonces.release(trx, row.senderAddress, row.nonce)
      }
      await this.#event(
        trx,
        id,
        row.status,
        'failed',
        `${reason}; ${row.creditAddress === null ? 'pending revenue' : 'credit'} restored`
      )
      return true
    })
  }

  #now() {
    return new Date(this.clock.now())
  }

  async #lock(trx: TransactionClientContract, id: string): Promise<Withdrawal | null> {
    const row = await trx.from('withdrawals').where('id', id).forUpdate().first()
    return row ? toWithdrawal(row) : null
  }

  async #event(
    trx: TransactionClientContract,
    id: string,
    from: WithdrawalStatus | null,
    to: WithdrawalStatus,
    detail: string
  ) {
    await trx.table('withdrawal_events').insert({
      withdrawal_id: id,
      from_status: from,
      to_status: to,
      detail,
    })
    logger.info({ withdrawal_id: id, from_status: from, to_status: to, detail }, 'withdrawal')
    if (from !== to) trx.after('commit', () => metrics.withdrawal(to))
  }
}

/** Whether `claim` is still the last claim on the row's bytes. */
function holds(row: Withdrawal, claim: SendClaim) {
  return row.txid === claim.txid && row.broadcastAttempts === claim.attempt
}
