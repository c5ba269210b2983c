import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import { PlatformWallet } from '#chain/platform_wallet'
import { Clock } from '#core/clock'
import type { ChainConfig } from '#config/chain'
import type { PaymentsConfig } from '#config/payments'
import { FeedReader } from '#feeds/feed_reader'
import { formatStx } from '#ledger/money'
import type Feed from '#models/feed'
import { PaymentClaims } from '#payments/payment_claims'
import { PaymentPreflight } from '#payments/payment_preflight'
import { PaymentRecorder } from '#payments/payment_recorder'
import { newReceiptToken } from '#payments/receipts'
import { decodeAndCheckTransaction } from '#payments/verify_payment'
import { PaymentSettlement } from '#payments/settlement/payment_settlement'
import {
  type PaymentRequired,
  type SettlementResponse,
  paymentRequired,
  resourceIdentity,
} from '#payments/x402'
import { decodePaymentSignature } from '#payments/x402_codec'

export interface PaidCallRequest {
  feed: Feed
  path: string
  /** The query parameters the driver accepted. */
  query: Record<string, string>
  /** The `payment-signature` header (the unpaid 402 is answered by feedPaymentRequired alone). */
  paymentHeader: string
  agentName?: string
  startedAt: number
}

export type PaidCallResult =
  | { kind: 'payment_required'; body: PaymentRequired; settlement?: SettlementResponse }
  | {
      kind: 'paid'
      /** The exact JSON text of the paid response (a replay returns the same bytes). */
      body: string
      settlement: SettlementResponse
      /** Time spent broadcasting and waiting for the block (absent for a replayed response). */
      chainMs?: number
    }
  | { kind: 'pending'; body: unknown; settlement: SettlementResponse; retryAfterSeconds: number }
  | { kind: 'too_many_in_flight'; settlement: SettlementResponse }
  | { kind: 'unavailable'; settlement: SettlementResponse }
  /** The call failed after the payment decoded (source or facilitator down, a bug): rethrow `error`. */
  | { kind: 'failed'; error: unknown; settlement: SettlementResponse }

/** The 402 body (and `payment-required` header) of a feed request, with an error code or not. */
export function feedPaymentRequired(
  request: Pick<PaidCallRequest, 'feed' | 'path' | 'query'>,
  payTo: string,
  error?: string
): PaymentRequired {
  return paymentRequired({
    baseUrl: app.config.get<string>('app.publicUrl'),
    path: request.path,
    query: request.query,
    description: request.feed.description || request.feed.displayName,
    price: request.feed.priceMicrostx,
    payTo,
    network: app.config.get<ChainConfig>('chain').network,
    error,
  })
}

/**
 * One paid call, in the order of ARCHITECTURE §4: requirements → decode →
 * verify the bytes → claim (committed before any network I/O) → balance and
 * nonce → fetch → store the response → settle (broadcast, wait for the block
 * within the request's budget; in-process or through FACILITATOR_URL) →
 * record (payment, ledger, query log in one transaction) → respond. The buyer
 * is charged only for data it receives; no lock is held across network calls.
 */
@inject()
export class ServePaidCall {
  constructor(
    private reader: FeedReader,
    private claims: PaymentClaims,
    private recorder: PaymentRecorder,
    private preflight: PaymentPreflight,
    private settlement: PaymentSettlement,
    private wallet: PlatformWallet,
    private clock: Clock
  ) {}

  async execute(request: PaidCallRequest): Promise<PaidCallResult> {
    const chain = app.config.get<ChainConfig>('chain')
    const config = app.config.get<PaymentsConfig>('payments')
    const network = chain.network.caip2
    const requirements = (error?: string) =>
      feedPaymentRequired(request, this.wallet.address, error)
    const refused = (code: string, settlement?: Partial<SettlementResponse>): PaidCallResult => ({
      kind: 'payment_required',
      body: requirements(code),
      settlement: { success: false, transaction: '', network, errorReason: code, ...settlement },
    })

    const decoded = await decodePaymentSignature(request.paymentHeader, requirements().accepts[0])
    if (!decoded.ok) return refused(decoded.code)
    const checked = decodeAndCheckTransaction(
      decoded.payment.transaction,
      { amount: request.feed.priceMicrostx, payTo: this.wallet.address, network: chain.network },
      { maxFee: config.maxFeeMicrostx }
    )
    if (!checked.ok) return refused(checked.failure.code)
    const payment = checked.payment
    const settlement = (success: boolean, errorReason?: string): SettlementResponse => ({
      success,
      transaction: `0x${payment.txid}`,
      network,
      payer: payment.payer,
      ...(errorReason ? { errorReason } : {}),
    })
    /** Refused once the payment is known: the payment-response names the transaction and payer. */
    const refusedPayment = (code: string) => refused(code, settlement(false, code))
    const resource = resourceIdentity('GET', request.path, request.query)

    const claim = await this.claims.claim({
      purpose: 'feed',
      payment,
      feedId: request.feed.id,
      resource,
      network,
      paymentIdentifier: decoded.payment.paymentIdentifier,
      agentName: request.agentName,
    })
    switch (claim.outcome) {
      case 'redeemed': {
        const sameClient =
          claim.payment.purpose === 'feed' &&
          decoded.payment.paymentIdentifier !== undefined &&
          claim.payment.payment_identifier === decoded.payment.paymentIdentifier &&
          claim.payment.resource === resource &&
          claim.payment.response !== null
        return sameClient
          ? { kind: 'paid', body: claim.payment.response!, settlement: settlement(true) }
          : refusedPayment('payment_already_used')
      }
      case 'failed':
        return refusedPayment('payment_failed')
      case 'in_flight':
        // Settling through /facilitator/settle: redeemed there, never here as well.
        if (claim.payment.purpose !== 'feed') return refusedPayment('payment_already_used')
        return this.#pending(payment.txid, settlement(false, 'settlement_pending'), undefined)
      case 'too_many_in_flight':
        return {
          kind: 'too_many_in_flight',
          settlement: settlement(false, 'too_many_payments_in_flight'),
        }
      case 'claimed':
        break
      default: {
        const unknownOutcome: never = claim
        throw new Error(`unknown claim outcome ${JSON.stringify(unknownOutcome)}`)
      }
    }

    let broadcastStarted = false
    try {
      for (const check of [
        () => this.preflight.check(payment),
        () => this.settlement.preflight(payment, request.feed.priceMicrostx),
      ]) {
        const verdict = await check()
        if (!verdict.ok) {
          await this.claims.abandon(payment.txid, verdict.code)
          return refusedPayment(verdict.code)
        }
      }

      const served = await this.reader.read(request.feed, request.query)
      // Serialised once: the same bytes are served now, stored, and replayed.
      const body = JSON.stringify({
        data: served.data,
        price: Number(request.feed.priceMicrostx),
        price_stx: formatStx(request.feed.priceMicrostx),
        data_source: served.data_source,
        last_updated: served.last_updated,
        ...(served.stale ? { stale: true } : {}),
      })
      // Someone may have broadcast the bytes while the source answered: still not ours to redeem.
      if (await this.preflight.isKnownToChain(payment.txid)) {
        await this.claims.abandon(payment.txid, 'transaction_already_broadcast')
        return refusedPayment('transaction_already_broadcast')
      }
      const handedOver = await this.recorder.markBroadcast(payment.txid, {
        response: body,
        responseMs: this.clock.now() - request.startedAt,
      })
      broadcastStarted = true
      // The reconcile job settled this claim meanwhile (the chain had it from someone else).
      if (!handedOver) return refusedPayment('transaction_already_broadcast')
      const chainStarted = this.clock.now()

      const outcome = await this.settlement.settle(payment, request.feed.priceMicrostx, {
        waitMs: Math.max(0, config.settlementBudgetMs - (this.clock.now() - request.startedAt)),
      })
      const chainMs = this.clock.now() - chainStarted
      const recorded = await this.recorder.record(payment.txid, outcome)
      switch (outcome.state) {
        case 'confirmed':
          if (recorded === 'not_broadcast') return refusedPayment('payment_failed')
          return { kind: 'paid', body, settlement: settlement(true), chainMs }
        case 'rejected':
          return refusedPayment(outcome.code)
        case 'rate_limited':
          return { kind: 'unavailable', settlement: settlement(false, 'rate_limited') }
        case 'failed':
          return refusedPayment('payment_failed')
        case 'pending':
          return this.#pending(
            payment.txid,
            settlement(false, 'settlement_pending'),
            newReceiptToken()
          )
        default: {
          const unknownOutcome: never = outcome
          throw new Error(`unknown settlement outcome ${JSON.stringify(unknownOutcome)}`)
        }
      }
    } catch (error) {
      if (!broadcastStarted) await this.claims.abandon(payment.txid, 'request_failed')
      return { kind: 'failed', error, settlement: settlement(false, failureReason(error)) }
    }
  }

  async #pending(
    txid: string,
    settlement: SettlementResponse,
    receipt: { token: string; hash: string } | undefined
  ): Promise<PaidCallResult> {
    if (receipt) await this.recorder.setReceipt(txid, receipt.hash)
    return {
      kind: 'pending',
      settlement,
      retryAfterSeconds: 5,
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
function failureReason(error: unknown) {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('E_')
    ? code.slice(2).toLowerCase()
    : 'unexpected_settle_error'
}
