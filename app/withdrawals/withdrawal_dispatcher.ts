import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Database } from '@adonisjs/lucid/database'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { makeSTXTokenTransfer } from '@stacks/transactions'
import type { BroadcastOutcome } from '#chain/broadcast_outcome'
import { broadcastTransaction } from '#chain/broadcast_transaction'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import { Clock } from '#core/clock'
import type { Microstx } from '#ledger/money'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import { PlatformNonces } from '#withdrawals/platform_nonces'
import { type SendClaim, WithdrawalLifecycle } from '#withdrawals/withdrawal_lifecycle'
import { toWithdrawal, type Withdrawal, WithdrawalRecords } from '#withdrawals/withdrawal_records'

/** Refusals that are about the nonce, not the withdrawal: re-synced and signed again. */
const NONCE_REFUSALS = new Set(['bad_nonce', 'conflicting_nonce', 'too_much_chaining'])

/**
 * The platform wallet's transaction pipeline. Queued withdrawals (debited,
 * not yet signed) are signed in request order while fewer than `maxChained`
 * of the wallet's transactions are in flight — Stacks refuses more
 * (TooMuchChaining) — each with a nonce from the row-locked allocator; the
 * bytes, txid and nonce are committed before they are broadcast in nonce
 * order. The rest wait in the database for earlier ones to confirm.
 */
@inject()
export class WithdrawalDispatcher {
  constructor(
    private db: Database,
    private stacks: StacksClient,
    private wallet: PlatformWallet,
    private nonces: PlatformNonces,
    private lifecycle: WithdrawalLifecycle,
    private clock: Clock,
    private chain: ChainConfig,
    private config: WithdrawalsConfig,
    private records: WithdrawalRecords
  ) {}

  /**
   * After a request committed its withdrawal (debited, queued): signs and
   * sends what fits, and answers the withdrawal as it is now. A failure here
   * leaves it queued: withdrawals:confirm sends it once the node answers.
   */
  async dispatchRequested(id: string): Promise<Withdrawal> {
    try {
      await this.dispatch()
    } catch (error) {
      logger.warn({ err: error, withdrawal_id: id }, 'withdrawal queued: dispatch failed')
    }
    return (await this.records.find(id))!
  }

  /** Signs and sends what fits in the chain's limit; a nonce refusal gets one more round. */
  async dispatch(): Promise<void> {
    for (let round = 0; round < 2; round++) {
      const signed = await this.#signQueued()
      let refusedNonce = false
      for (const withdrawal of signed) {
        refusedNonce = (await this.send(withdrawal)) === 'nonce_refused' || refusedNonce
      }
      if (!refusedNonce) return
    }
  }

  /**
   * Broadcasts a signed withdrawal's bytes and applies the node's answer:
   * accepted → broadcast; for bytes never sent before, refused for the
   * withdrawal itself or rate-limited after the retries → failed and restored,
   * in this call, and refused for its nonce → re-synced and queued to be
   * signed again; unknown (time-out, 5xx), or any refusal of bytes sent
   * before → left pending for withdrawals:confirm, never restored blindly.
   */
  async send(
    withdrawal: Withdrawal
  ): Promise<'sent' | 'failed' | 'unknown' | 'nonce_refused' | 'busy'> {
    const claim = await this.lifecycle.claimSend(
      withdrawal.id,
      withdrawal.txid!,
      this.config.sendLeaseMs
    )
    if (!claim) return 'busy'
    const outcome = await broadcastTransaction(
      this.stacks,
      withdrawal.rawTx!,
      this.config.broadcast,
      this.clock
    )
    return this.#apply(withdrawal.id, claim, outcome)
  }

  async #apply(id: string, claim: SendClaim, outcome: BroadcastOutcome) {
    switch (outcome.kind) {
      case 'accepted':
        await this.lifecycle.markBroadcast(id, claim.txid, `the node took 0x${claim.txid}`)
        return 'sent'
      case 'rejected':
      case 'rate_limited': {
        const reason =
          outcome.kind === 'rejected'
            ? `the node refused it: ${outcome.code}`
            : 'the node rate-limited every broadcast'
        // Bytes sent before may sit in some mempool, or be sent again by anyone, until their
        // nonce is used: only the chain settles them (withdrawals:confirm), never a refusal.
        // So do bytes another sender claimed meanwhile (this one's lease ran out): then
        // unsign and fail refuse, and the refusal is only noted.
        if (claim.previousAttempts === 0) {
          if (outcome.kind === 'rejected' && NONCE_REFUSALS.has(outcome.code)) {
            const unsigned = await this.lifecycle.unsign(id, outcome.code, claim, {
              nonceUsed: outcome.code !== 'too_much_chaining',
            })
            if (unsigned) {
              await this.#resyncNonces()
              return 'nonce_refused'
            }
          } else if (await this.lifecycle.fail(id, reason, { mined: false, claim })) {
            return 'failed'
          }
        }
        const why =
          claim.previousAttempts === 0 ? 'no longer this sender’s to settle' : 'sent before'
        await this.lifecycle.noteAttempt(id, claim, `${reason}; ${why}: left to the chain`)
        return 'unknown'
      }
      case 'unknown':
        await this.lifecycle.noteAttempt(id, claim, `broadcast outcome unknown: ${outcome.detail}`)
        return 'unknown'
      default: {
        const unknownOutcome: never = outcome
        throw new Error(`unknown broadcast outcome ${JSON.stringify(unknownOutcome)}`)
      }
    }
  }

  async #signQueued(): Promise<Withdrawal[]> {
    const sender = this.wallet.address
    const queued = await this.db
      .from('withdrawals')
      .where('status', 'pending')
      .whereNull('nonce')
      .first()
    // Checked again under the lock; this spares a burst the fee look-up and the lock when full.
    if (!queued || (await this.#inFlight(this.db.connection(), sender)) >= this.config.maxChained)
      return []
    await this.nonces.seed(sender, async () => {
      const nonces = await this.stacks.getNonces(sender)
      return nonces.possibleNextNonce
    })
    const fee = await this.#fee()

    return this.db.transaction(async (trx) => {
      await this.nonces.lock(trx, sender)
      const room = this.config.maxChained - (await this.#inFlight(trx, sender))
      if (room <= 0) return []
      const rows = await trx
        .from('withdrawals')
        .where('status', 'pending')
        .whereNull('nonce')
        .orderBy('created_at')
        .orderBy('id')
        .limit(room)
        .forUpdate()
        .skipLocked()
      const signed: Withdrawal[] = []
      for (const row of rows.map(toWithdrawal)) {
        const nonce = await this.nonces.take(trx, sender)
        const transfer = await makeSTXTokenTransfer({
          recipient: row.destination,
          amount: row.amount,
          fee,
          nonce,
          memo: row.memo,
          senderKey: this.wallet.privateKey.release(),
          network: this.chain.network.stacks,
        })
        const bytes = transfer.serializeBytes()
        const txid = transfer.txid()
        await this.lifecycle.sign(trx, row.id, { sender, nonce, fee, txid, bytes })
        signed.push({ ...row, senderAddress: sender, nonce, fee, txid, rawTx: bytes })
      }
      return signed
    })
  }

  /** The sender's signed transactions not yet settled: the chain's chaining count. */
  async #inFlight(client: QueryClientContract, sender: string): Promise<number> {
    const live = await client
      .from('withdrawals')
      .where('sender_address', sender)
      .whereIn('status', ['pending', 'broadcast'])
      .whereNotNull('nonce')
      .count('* as count')
      .first()
    return Number(live?.count ?? 0)
  }

  /** The node's estimate for a transfer of about `estimatedBytes`, capped; the platform pays it. */
  async #fee(): Promise<Microstx> {
    const rate = await this.stacks.getTransferFeeRate()
    const estimate = (rate > 0n ? rate : 1n) * BigInt(this.config.fee.estimatedBytes)
    return estimate < this.config.fee.capMicrostx ? estimate : this.config.fee.capMicrostx
  }

  async #resyncNonces() {
    const sender = this.wallet.address
    const nonces = await this.stacks.getNonces(sender)
    await this.db.transaction((trx) => this.nonces.resync(trx, sender, nonces))
  }
}
