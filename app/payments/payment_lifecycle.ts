import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { TransactionStatus } from '#chain/stacks_client'
import {
  NONCE_USED_REASON,
  type TransactionVerdict,
  transactionVerdict,
} from '#chain/transaction_verdict'
import { Clock } from '#core/clock'
import { postConfirmedTopUp } from '#credit/confirmed_top_up'
import { type Lease, RowLeases } from '#core/row_leases'
import { Ledger } from '#ledger/ledger'
import { parseMicrostx } from '#ledger/money'
import { splitPayment } from '#ledger/split'
import {
  IN_FLIGHT_STATUSES,
  type PaymentPurpose,
  type PaymentRow,
  PaymentRecords,
  type PaymentStatus,
} from '#payments/payment_records'
import type { SettlementOutcome } from '#payments/settlement/payment_settlement'
import type { VerifiedPayment } from '#payments/verify_payment'
import { QueryLog } from '#stats/query_log'
import { metrics } from '#metrics/metrics'

export const MAX_CLAIMS_IN_FLIGHT_PER_PAYER = 5

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

/** A payment already held: the claim outcomes that name its row. */
export type ExistingPayment = Extract<ClaimOutcome, { payment: PaymentRow }>

export type Confirmation = 'confirmed' | 'already_confirmed' | 'not_broadcast'

/** A settling payment as a reconcile run leases it. */
export interface UnsettledPayment {
  txid: string
  status: 'claimed' | 'broadcast'
  payer: string
  nonce: string | null
  claimed_at: Date
}

/**
 * The one owner of a payment's state; nothing else writes `payments.status`.
 *
 *   (none | released) ─claim→ claimed ─handOver→ broadcast ─confirm→ confirmed
 *   claimed | broadcast ─fail→ failed
 *   claimed ─release→ released            (nothing broadcast: it may be presented again)
 *   broadcast ─releaseUntaken→ released   (rate-limited: the node never took it)
 *
 * A claim is committed before any network I/O and is exclusive across
 * requests, processes, instances and purposes (the paywall and the
 * facilitator share the table; the txid is the primary key). Confirmation is
 * the one place money moves: the payment becomes `confirmed`, its double
 * entry is posted and the call enters the query log in one transaction —
 * once, whoever (the paywall, the status route or the reconcile job) gets
 * there first.
 */
@inject()
export class PaymentLifecycle {
  constructor(
    private db: Database,
    private records: PaymentRecords,
    private ledger: Ledger,
    private queryLog: QueryLog,
    private clock: Clock,
    private leases: RowLeases
  ) {}

  async claim(request: ClaimRequest): Promise<ClaimOutcome> {
    const { payment } = request
    return this.db.transaction(async (trx) => {
      // Serialises claims of one payer so the in-flight cap holds under concurrency.
      await trx.rawQuery('SELECT pg_advisory_xact_lock(hashtext(?))', [`payer:${payment.payer}`])
      const claimed = await trx.rawQuery(
        `INSERT INTO payments (txid, purpose, feed_id, resource, payer, amount_microstx, fee_microstx, nonce,
                               network, raw_tx, status, payment_identifier, agent_name, claimed_at, updated_at)
         SELECT ?, ?, NULLIF(?, '')::uuid, ?, ?, ?, ?, ?, ?, ?, 'claimed', NULLIF(?, ''), NULLIF(?, ''), ?, ?
         WHERE (SELECT count(*) FROM payments
                WHERE payer = ? AND status IN ('claimed', 'broadcast') AND dropped_at IS NULL) < ?
         ON CONFLICT (txid) DO UPDATE SET
           status = 'claimed', purpose = EXCLUDED.purpose, resource = EXCLUDED.resource,
           feed_id = EXCLUDED.feed_id, payment_identifier = EXCLUDED.payment_identifier,
           agent_name = EXCLUDED.agent_name, fee_microstx = EXCLUDED.fee_microstx,
           nonce = EXCLUDED.nonce, failure_reason = NULL, claimed_at = EXCLUDED.claimed_at,
           updated_at = EXCLUDED.updated_at
         WHERE payments.status = 'released'
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
          this.#now(),
          this.#now(),
          payment.payer,
          MAX_CLAIMS_IN_FLIGHT_PER_PAYER,
        ]
      )
      if (claimed.rows.length === 1) return { outcome: 'claimed' }
      return this.#claimRefusal(trx, payment.txid)
    })
  }

  /**
   * claimed → broadcast: stores the exact response text to serve (none for a
   * facilitator settlement) in the same statement, committed before the
   * broadcast, so a crash leaves a row the reconcile job can finish and the
   * buyer's retry can be answered from. False when the claim is no longer
   * this request's (the reconcile job settled it).
   */
  async handOver(
    txid: string,
    served: { response: string; responseMs: number } | null
  ): Promise<boolean> {
    const updated: { txid: string }[] = await this.db
      .from('payments')
      .where('txid', txid)
      .where('status', 'claimed')
      .update({
        status: 'broadcast',
        broadcast_at: this.#now(),
        response: served?.response ?? null,
        response_ms: served?.responseMs ?? null,
        updated_at: this.#now(),
      })
      .returning('txid')
    return updated.length === 1
  }

  /**
   * broadcast → confirmed; in the same transaction a feed payment is credited
   * and logged, a top-up credited to its payer's credit with its answer
   * stored (docs/credit.md#top-ups). Every confirmation — the request, the
   * status route, the reconcile job — comes through here. `already_confirmed`:
   * another request or job got there first; `not_broadcast`: the row is not
   * settling (never handed to the node, or settled otherwise).
   */
  async confirm(txid: string, blockHeight: number | null): Promise<Confirmation> {
    return this.db.transaction(async (trx) => {
      const updated = await trx.rawQuery(
        `UPDATE payments p SET status = 'confirmed', block_height = ?, updated_at = ?
         WHERE p.txid = ? AND p.status = 'broadcast'
         RETURNING p.purpose, p.feed_id, p.payer, p.amount_microstx, p.agent_name, p.response_ms,
                   (SELECT f.provider_id FROM feeds f WHERE f.id = p.feed_id) AS provider_id`,
        [blockHeight ?? 0, this.#now(), txid]
      )
      const row = updated.rows[0]
      if (!row) {
        const current = await trx.from('payments').where('txid', txid).select('status').first()
        return current?.status === 'confirmed' ? 'already_confirmed' : 'not_broadcast'
      }
      const amount = parseMicrostx(row.amount_microstx)
      if (row.purpose === 'credit_top_up') {
        const response = await postConfirmedTopUp(trx, this.ledger, {
          txid,
          payer: row.payer,
          amount,
        })
        await trx.from('payments').where('txid', txid).update({ response })
        return 'confirmed'
      }
      if (row.purpose !== 'feed') return 'confirmed'
      // A refused posting fails the whole confirmation: no savepoint needed to undo it alone.
      await this.ledger.post(
        trx,
        {
          kind: 'payment',
          reference: txid,
          entries: this.ledger.paymentEntries({ amount, providerId: row.provider_id }),
        },
        { savepoint: false }
      )
      trx.after('commit', () => metrics.revenue(amount, 'onchain'))
      await this.queryLog.recordPaidCall(trx, {
        feedId: row.feed_id,
        txid,
        payer: row.payer,
        agentName: row.agent_name ?? undefined,
        price: amount,
        providerShare: row.provider_id === null ? 0n : splitPayment(amount).providerShare,
        responseMs: row.response_ms ?? 0,
      })
      return 'confirmed'
    })
  }

  /** claimed | broadcast → failed: refused by the node or failed on chain; nothing charged. */
  async fail(txid: string, reason: string) {
    await this.#move(txid, IN_FLIGHT_STATUSES, 'failed', reason)
  }

  /**
   * claimed → released: this request's claim ends before it was handed over
   * (refused, the source failed), or the reconcile job finds a claim whose
   * request is long gone; nothing charged, the transfer may be presented
   * again. Only from `claimed`: a claim that lost its request may since have
   * been claimed and handed over by another request, whose row this must not
   * touch. True when it moved the row.
   */
  async release(txid: string, reason: string): Promise<boolean> {
    return this.#move(txid, ['claimed'], 'released', reason)
  }

  /**
   * broadcast → released: the node never took the transaction (rate-limited
   * every attempt); nothing charged, the transfer may be presented again.
   */
  async releaseUntaken(txid: string, reason: string) {
    await this.#move(txid, ['broadcast'], 'released', reason)
  }

  /**
   * Applies what settling a payment this service broadcast came to: confirmed
   * → confirm(); rejected by the node or failed on chain → failed;
   * rate-limited (never taken) → released; still pending → nothing (the
   * reconcile job finishes it). Answers confirm()'s verdict, or null.
   */
  async applySettlement(txid: string, outcome: SettlementOutcome): Promise<Confirmation | null> {
    switch (outcome.state) {
      case 'confirmed':
        return this.confirm(txid, outcome.blockHeight)
      case 'rejected':
        await this.fail(txid, outcome.code)
        return null
      case 'failed':
        await this.fail(txid, outcome.reason)
        return null
      case 'rate_limited':
        await this.releaseUntaken(txid, 'rate_limited')
        return null
      case 'pending':
        return null
      default: {
        const unknownOutcome: never = outcome
        throw new Error(`unknown settlement outcome ${JSON.stringify(unknownOutcome)}`)
      }
    }
  }

  /**
   * Applies what the chain says of a settling payment (the status route):
   * see applyVerdict.
   */
  async applyChainStatus(txid: string, status: TransactionStatus | null | undefined) {
    return this.applyVerdict(
      txid,
      transactionVerdict({ status, nonce: null, outOfSightMs: null, graceMs: 0 })
    )
  }

  /**
   * Applies the chain's verdict on a settling payment: confirmed → confirm()
   * (`already_confirmed` when another request or job got there first);
   * aborted on chain, or its nonce used by another transaction → failed; in
   * the mempool, dropped or unknown → nothing changes here (the reconcile job
   * decides). A claim this service never handed to the node that the chain
   * has mined anyway was broadcast by someone else: it fails, never credited.
   */
  async applyVerdict(
    txid: string,
    verdict: TransactionVerdict
  ): Promise<'confirmed' | 'already_confirmed' | 'failed' | 'pending'> {
    switch (verdict.kind) {
      case 'confirmed': {
        const confirmed = await this.confirm(txid, verdict.blockHeight)
        if (confirmed !== 'not_broadcast') return confirmed
        await this.#move(txid, ['claimed'], 'failed', 'transaction_already_broadcast')
        return 'failed'
      }
      case 'aborted':
        await this.#move(txid, ['claimed'], 'failed', 'transaction_already_broadcast')
        await this.#move(txid, ['broadcast'], 'failed', verdict.status)
        return 'failed'
      case 'nonce_used':
        await this.fail(txid, NONCE_USED_REASON)
        return 'failed'
      default:
        return 'pending'
    }
  }

  /**
   * Leases the claimed and broadcast payments untouched for graceSeconds (a
   * dropped one for droppedRecheckSeconds) to one reconcile run, oldest first
   * (docs/architecture.md#leases).
   */
  async leaseUnsettled(options: {
    graceSeconds: number
    droppedRecheckSeconds: number
    batchSize: number
    leaseMs: number
  }): Promise<Lease<UnsettledPayment>> {
    return this.leases.take<UnsettledPayment>({
      table: 'payments',
      key: 'txid',
      due: (now) => ({
        sql: `status IN ('claimed', 'broadcast')
              AND updated_at <= CASE WHEN dropped_at IS NULL THEN ?::timestamptz ELSE ?::timestamptz END`,
        bindings: [
          new Date(now - options.graceSeconds * 1_000),
          new Date(now - options.droppedRecheckSeconds * 1_000),
        ],
      }),
      orderBy: 'updated_at',
      limit: options.batchSize,
      returning: 't.status, t.payer, t.nonce, t.claimed_at',
      leaseMs: options.leaseMs,
    })
  }

  /**
   * The node dropped a broadcast payment from its mempool: it stays pending
   * (another node may still mine it) but stops holding its payer's nonce,
   * funds and in-flight slot, so the buyer can pay again at that nonce.
   */
  async markDropped(txid: string) {
    await this.db
      .from('payments')
      .where('txid', txid)
      .where('status', 'broadcast')
      .whereNull('dropped_at')
      .update({ dropped_at: this.#now() })
  }

  /** The hash of the receipt token a 202 handed out, to collect the response later. */
  async attachReceipt(txid: string, tokenHash: string) {
    await this.db.from('payments').where('txid', txid).update({ receipt_token_hash: tokenHash })
  }

  /**
   * What became of a payment this service already holds: settling, redeemed
   * or failed (null when it holds none, or released it). A retry of it is
   * answered from this, whether or not the feed can serve now.
   */
  async existing(txid: string, trx?: TransactionClientContract): Promise<ExistingPayment | null> {
    const existing = await this.records.find(txid, trx)
    if (!existing || existing.status === 'released') return null
    switch (existing.status) {
      case 'claimed':
      case 'broadcast':
        return { outcome: 'in_flight', payment: existing }
      case 'confirmed':
        return { outcome: 'redeemed', payment: existing }
      case 'failed':
        return { outcome: 'failed', payment: existing }
      default: {
        const unknownStatus: never = existing.status
        throw new Error(`unknown payment status ${String(unknownStatus)}`)
      }
    }
  }

  /** No row, or a released one whose re-claim was refused: the payer is at the cap. */
  async #claimRefusal(trx: TransactionClientContract, txid: string): Promise<ClaimOutcome> {
    return (await this.existing(txid, trx)) ?? { outcome: 'too_many_in_flight' }
  }

  #now() {
    return new Date(this.clock.now())
  }

  /** Whether the row was in one of `from` and moved. */
  async #move(txid: string, from: PaymentStatus[], to: PaymentStatus, reason: string) {
    const moved: { txid: string }[] = await this.db
      .from('payments')
      .where('txid', txid)
      .whereIn('status', from)
      .update({ status: to, failure_reason: reason, updated_at: this.#now() })
      .returning('txid')
    return moved.length > 0
  }
}
