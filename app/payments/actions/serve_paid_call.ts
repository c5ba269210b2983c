import { inject } from '@adonisjs/core'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { Clock } from '#core/clock'
import { declaredCodeOf, type ErrorCode } from '#core/error_codes'
import type { RequestLog } from '#core/request_log'
import type { Microstx } from '#ledger/money'
import { PaymentsConfig } from '#payments/define_config'
import { E_SETTLEMENT_UNAVAILABLE, E_TOO_MANY_PAYMENTS_IN_FLIGHT } from '#payments/exceptions'
import {
  PaidCallFailure,
  type PaidCallResult,
  type SettledTransaction,
  settlementResponse,
} from '#payments/paid_call_response'
import { type ExistingPayment, PaymentLifecycle } from '#payments/payment_lifecycle'
import { type PaymentPurpose, PaymentRecords } from '#payments/payment_records'
import { type PaymentRefusal, paymentRefusal } from '#payments/payment_refusal'
import { PreBroadcastChecks } from '#payments/pre_broadcast_checks'
import { newReceiptToken } from '#payments/receipts'
import { PaymentSettlement, type SettlementOutcome } from '#payments/settlement/payment_settlement'
import { type VerifiedPayment, decodeAndCheckTransaction } from '#payments/verify_payment'
import type { PaymentRequired } from '#payments/x402'
import { type DecodedPayment, decodePaymentSignature } from '#payments/x402_codec'

/* What happened to a payment (not a check of it) refusing this call. */
const alreadyUsed = paymentRefusal('payment_already_used', 'the transfer was already redeemed')
const failedOnChain = paymentRefusal('payment_failed', 'the transfer failed on chain')
const settledByReconcile = paymentRefusal(
  'transaction_already_broadcast',
  'the reconcile job found the transaction on chain from someone else'
)

/**
 * What one paid request sells, and on what terms: a feed call (ServeFeed) or
 * a top-up of prepaid credit (BuyTopUp). Everything else about the payment —
 * decoding, checks, claim, settlement, replays, receipts — is the same code.
 */
export interface PaidResource {
  purpose: Exclude<PaymentPurpose, 'facilitator'>
  /** The feed paid for (purpose `feed` only). */
  feedId: string | null
  /** What the transfer must pay at least, in µSTX. */
  price: Microstx
  /** Its identity stored with the payment, which a replay must match (resourceIdentity). */
  resource: string
  /** The 402 body (and `payment-required` header) asking for it, with an error code or not. */
  paymentRequired(error?: ErrorCode): PaymentRequired
  /**
   * The exact JSON text to serve, made before the broadcast (a feed's data:
   * the buyer is charged only for data it receives); null when the answer is
   * made as the payment confirms (a top-up: PaymentLifecycle.confirm stores it).
   */
  serve(): Promise<string | null>
}

export interface PaidCallRequest {
  resource: PaidResource
  /** The `payment-signature` header (the unpaid 402 is answered by the resource's requirements). */
  paymentHeader: string
  agentName?: string
  startedAt: number
  /** The request's log: every line from the decoded payment on names its transaction. */
  log: RequestLog
}

/** A verified payment of one request, and what its answers say about it. */
interface PaidCall {
  request: PaidCallRequest
  payment: VerifiedPayment
  decoded: DecodedPayment
  /** The payment-response of this payment: success, or the failure's code. */
  settlement(errorReason?: ErrorCode): ReturnType<typeof settlementResponse>
  /** The 402 of a refused payment, naming the transaction and payer. */
  refused(refusal: PaymentRefusal): PaidCallResult
  /** An error of this call, to be thrown with its payment-response. */
  failure(error: unknown, code?: ErrorCode): PaidCallFailure
}

/**
 * One paid call, in the order of docs/architecture.md#the-paid-call: requirements → decode →
 * verify the bytes → claim (committed before any network I/O) → balance and
 * nonce → fetch → store the response → settle (broadcast, wait for the block
 * within the request's budget; in-process or through FACILITATOR_URL) →
 * record (payment, ledger, query log in one transaction) → respond. The buyer
 * is charged only for data it receives; no lock is held across network calls.
 * A failure after the payment decoded is thrown with its payment-response.
 * A top-up of prepaid credit is paid through the same steps, with nothing to
 * fetch (docs/credit.md#top-ups).
 */
@inject()
export class ServePaidCall {
  constructor(
    private lifecycle: PaymentLifecycle,
    private records: PaymentRecords,
    private checks: PreBroadcastChecks,
    private settlement: PaymentSettlement,
    private wallet: PlatformWallet,
    private clock: Clock,
    private chain: ChainConfig,
    private config: PaymentsConfig
  ) {}

  async execute(request: PaidCallRequest): Promise<PaidCallResult> {
    const verified = await this.#verify(request)
    if ('refusal' in verified) return verified.refusal
    const { call } = verified
    const claim = await this.lifecycle.claim({
      purpose: request.resource.purpose,
      payment: call.payment,
      feedId: request.resource.feedId,
      resource: request.resource.resource,
      network: this.chain.network.caip2,
      paymentIdentifier: call.decoded.paymentIdentifier,
      agentName: request.agentName,
    })
    if (claim.outcome !== 'claimed') return this.#answerExistingClaim(call, claim)
    return this.#serveClaimed(call)
  }

  /**
   * The answer to a retry of a payment this service already holds (its
   * stored response, its receipt, or why it is refused), as execute() would
   * give it; null for a payment it does not hold or cannot read. For a feed
   * that cannot serve now: what was paid while it could is still answered.
   */
  async replay(request: PaidCallRequest): Promise<PaidCallResult | null> {
    const verified = await this.#verify(request)
    if ('refusal' in verified) return null
    const existing = await this.lifecycle.existing(verified.call.payment.txid)
    return existing ? this.#answerExistingClaim(verified.call, existing) : null
  }

  /** The payment decoded and its bytes checked against the terms; or the 402 refusing it. */
  async #verify(
    request: PaidCallRequest
  ): Promise<{ call: PaidCall } | { refusal: PaidCallResult }> {
    const network = this.chain.network
    const { resource } = request
    const requirements = (error?: ErrorCode) => resource.paymentRequired(error)
    const refused = (
      { code }: PaymentRefusal,
      transaction?: SettledTransaction
    ): PaidCallResult => ({
      kind: 'payment_required',
      body: requirements(code),
      settlement: settlementResponse(network.caip2, transaction, code),
    })

    const decoded = await decodePaymentSignature(request.paymentHeader, requirements().accepts[0])
    if (!decoded.ok) return { refusal: refused(decoded.refusal) }
    const checked = decodeAndCheckTransaction(
      decoded.payment.transaction,
      { amount: resource.price, payTo: this.wallet.address, network },
      { maxFee: this.config.maxFeeMicrostx }
    )
    if (!checked.ok) return { refusal: refused(checked.refusal) }
    const payment = checked.payment
    request.log.bind({ txid: payment.txid })
    return {
      call: {
        request,
        payment,
        decoded: decoded.payment,
        settlement: (errorReason) => settlementResponse(network.caip2, payment, errorReason),
        refused: (refusal) => refused(refusal, payment),
        failure: (error, code) =>
          new PaidCallFailure(
            settlementResponse(network.caip2, payment, code ?? failureReason(error)),
            { cause: error }
          ),
      },
    }
  }

  #answerExistingClaim(
    call: PaidCall,
    claim: ExistingPayment | { outcome: 'too_many_in_flight' }
  ): Promise<PaidCallResult> | PaidCallResult {
    switch (claim.outcome) {
      case 'redeemed': {
        const sameClient =
          claim.payment.purpose === call.request.resource.purpose &&
          call.decoded.paymentIdentifier !== undefined &&
          claim.payment.payment_identifier === call.decoded.paymentIdentifier &&
          claim.payment.resource === call.request.resource.resource &&
          claim.payment.response !== null
        return sameClient
          ? { kind: 'paid', body: claim.payment.response!, settlement: call.settlement() }
          : call.refused(alreadyUsed)
      }
      case 'failed':
        return call.refused(failedOnChain)
      case 'in_flight':
        // Settling for something else (/facilitator/settle, a feed or a top-up): never here as well.
        if (claim.payment.purpose !== call.request.resource.purpose) {
          return call.refused(alreadyUsed)
        }
        return this.#pending(call, undefined)
      case 'too_many_in_flight':
        throw call.failure(new E_TOO_MANY_PAYMENTS_IN_FLIGHT())
      default: {
        const unknownOutcome: never = claim
        throw new Error(`unknown claim outcome ${JSON.stringify(unknownOutcome)}`)
      }
    }
  }

  /** This request owns the claim: check, fetch, hand over, settle. */
  async #serveClaimed(call: PaidCall): Promise<PaidCallResult> {
    const { request, payment } = call
    let handedOver = false
    const { price } = request.resource
    let served: { body: string | null; outcome: SettlementOutcome; chainMs: number }
    try {
      for (const check of [
        () => this.checks.check(payment),
        () => this.settlement.verify(payment, price),
      ]) {
        const verdict = await check()
        if (!verdict.ok) {
          await this.lifecycle.release(payment.txid, verdict.refusal.code)
          return call.refused(verdict.refusal)
        }
      }

      const body = await request.resource.serve()
      // Someone may have broadcast the bytes while the source answered: still not ours to redeem.
      const stillOurs = await this.checks.refuseIfKnownToChain(payment.txid)
      if (!stillOurs.ok) {
        await this.lifecycle.release(payment.txid, stillOurs.refusal.code)
        return call.refused(stillOurs.refusal)
      }
      const ours = await this.lifecycle.handOver(
        payment.txid,
        body === null ? null : { response: body, responseMs: this.clock.now() - request.startedAt }
      )
      handedOver = true
      // The reconcile job settled this claim meanwhile (the chain had it from someone else).
      if (!ours) return call.refused(settledByReconcile)

      const chainStarted = this.clock.now()
      const outcome = await this.settlement.settle(payment, price, {
        waitMs: Math.max(0, this.config.settlementBudgetMs - (chainStarted - request.startedAt)),
      })
      served = { body, outcome, chainMs: this.clock.now() - chainStarted }
    } catch (error) {
      if (!handedOver) await this.lifecycle.release(payment.txid, 'request_failed')
      throw call.failure(error)
    }
    try {
      return await this.#answerSettlement(call, served)
    } catch (error) {
      // Broadcast already: the buyer still learns the transaction (the reconcile job finishes it).
      throw error instanceof PaidCallFailure ? error : call.failure(error)
    }
  }

  async #answerSettlement(
    call: PaidCall,
    served: { body: string | null; outcome: SettlementOutcome; chainMs: number }
  ): Promise<PaidCallResult> {
    const { outcome } = served
    const recorded = await this.lifecycle.applySettlement(call.payment.txid, outcome)
    switch (outcome.state) {
      case 'confirmed': {
        if (recorded === 'not_broadcast') return call.refused(failedOnChain)
        this.checks.confirmed(call.payment)
        // Made as the payment confirmed (here, or by whoever got there first).
        const stored = served.body === null ? await this.records.find(call.payment.txid) : null
        const body = served.body ?? stored?.response
        // Confirming a payment stores its answer in the same transaction: none is a bug, not a 200.
        if (body === undefined || body === null) {
          throw new Error(`confirmed payment 0x${call.payment.txid} has no stored answer`)
        }
        const appMs = this.clock.now() - call.request.startedAt - served.chainMs
        return {
          kind: 'paid',
          body,
          settlement: call.settlement(),
          timing: { chainMs: served.chainMs, appMs },
        }
      }
      case 'rejected':
        return call.refused({ code: outcome.code, message: 'the node refused the transaction' })
      case 'rate_limited':
        throw call.failure(new E_SETTLEMENT_UNAVAILABLE(), 'rate_limited')
      case 'failed':
        return call.refused(failedOnChain)
      case 'pending':
        return this.#pending(call, newReceiptToken())
      default: {
        const unknownOutcome: never = outcome
        throw new Error(`unknown settlement outcome ${JSON.stringify(unknownOutcome)}`)
      }
    }
  }

  async #pending(
    call: PaidCall,
    receipt: { token: string; hash: string } | undefined
  ): Promise<PaidCallResult> {
    const txid = call.payment.txid
    if (receipt) await this.lifecycle.attachReceipt(txid, receipt.hash)
    return {
      kind: 'pending',
      settlement: call.settlement('settlement_pending'),
      body: {
        x402Version: 2,
        error: 'settlement_pending',
        receipt: {
          txid: `0x${txid}`,
          ...(receipt ? { token: receipt.token } : {}),
          status_url: `/payments/0x${txid}`,
        },
      },
    }
  }
}

/** E_SOURCE_UNAVAILABLE → source_unavailable; anything unexpected → x402's unexpected_settle_error. */
function failureReason(error: unknown): ErrorCode {
  return declaredCodeOf(error) ?? 'unexpected_settle_error'
}
