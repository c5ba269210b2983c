import vine from '@vinejs/vine'
import type { Clock } from '#core/clock'
import { type ErrorCode, isErrorCode } from '#core/error_codes'
import { E_FACILITATOR_UNAVAILABLE } from '#payments/exceptions'
import type { Refusable } from '#payments/payment_refusal'
import { PaymentSettlement, type SettlementOutcome } from '#payments/settlement/payment_settlement'
import type { VerifiedPayment } from '#payments/verify_payment'
import { X402_VERSION } from '#payments/x402'
import { PAYWALL_PROOF_HEADER, paywallProof } from '#payments/paywall_proof'
import { JsonRequestFailure, requestJson, type Validates } from '#outbound/json_request'

const verifyAnswer = vine.create({
  isValid: vine.boolean({ strict: true }).optional(),
  valid: vine.boolean({ strict: true }).optional(),
  invalidReason: vine.string().maxLength(200).nullable().optional(),
})

const settleAnswer = vine.create({
  success: vine.boolean({ strict: true }),
  transaction: vine.string().maxLength(200).optional(),
  errorReason: vine.string().maxLength(200).nullable().optional(),
})

export interface RemoteFacilitatorOptions {
  /** FACILITATOR_URL: the full prefix, e.g. https://facilitator.example/facilitator. */
  baseUrl: string
  payTo: string
  /** CAIP-2 id of the network the service settles on. */
  network: string
  /** Time-out of /verify; /settle is bounded by the request's remaining budget. */
  timeoutMs: number
  /** The largest answer read, in bytes. */
  maxBytes: number
  /** APP_KEY: proves the paywall's claim to a facilitator that is another instance of this service. */
  proofKey: string
  clock: Clock
}

/**
 * Settlement through a remote x402 facilitator (FACILITATOR_URL) with the
 * seed's /verify and /settle shapes. Its answers are validated; one it does
 * not give in time, or a failure reason that is not one of our codes, leaves
 * the payment pending (it may have broadcast), and the reconcile job
 * finishes it from the chain.
 */
export class RemoteFacilitator extends PaymentSettlement {
  constructor(private options: RemoteFacilitatorOptions) {
    super()
  }

  async verify(payment: VerifiedPayment, price: bigint): Promise<Refusable> {
    const verdict = await this.#post('verify', verifyAnswer, payment, price, this.options.timeoutMs)
    const valid = verdict?.isValid ?? verdict?.valid
    if (valid === undefined) throw new E_FACILITATOR_UNAVAILABLE()
    if (valid) return { ok: true }
    const code = ownCode(verdict?.invalidReason, 'invalid_payload')
    return {
      ok: false,
      refusal: {
        code,
        message: `the facilitator's /verify refused it (${verdict?.invalidReason})`,
      },
    }
  }

  async settle(
    payment: VerifiedPayment,
    price: bigint,
    { waitMs }: { waitMs: number }
  ): Promise<SettlementOutcome> {
    const result = await this.#post('settle', settleAnswer, payment, price, waitMs)
    if (!result) return { state: 'pending' }
    const { success, errorReason } = result
    if (success) return { state: 'confirmed', blockHeight: null }
    // unexpected_settle_error is x402's catch-all: a facilitator may answer it after it broadcast.
    switch (errorReason) {
      case 'settlement_pending':
      case 'unexpected_settle_error':
      case null:
      case undefined:
        return { state: 'pending' }
      case 'transaction_failed':
        return { state: 'failed', reason: errorReason }
      case 'rate_limited':
        return { state: 'rate_limited' }
      default:
        // Our other codes are definite refusals; a reason we do not know may
        // follow a broadcast, so the chain decides (the reconcile job).
        return isErrorCode(errorReason)
          ? { state: 'rejected', code: errorReason }
          : { state: 'pending' }
    }
  }

  /** The facilitator's validated answer, or undefined when it gave none we can use. */
  async #post<T>(
    path: 'verify' | 'settle',
    answer: Validates<T>,
    payment: VerifiedPayment,
    price: bigint,
    timeoutMs: number
  ): Promise<T | undefined> {
    const body = JSON.stringify({
      x402Version: X402_VERSION,
      paymentPayload: {
        x402Version: X402_VERSION,
        payload: { transaction: `0x${Buffer.from(payment.bytes).toString('hex')}` },
      },
      paymentRequirements: {
        scheme: 'exact',
        network: this.options.network,
        amount: price.toString(),
        asset: 'STX',
        payTo: this.options.payTo,
        maxTimeoutSeconds: 300,
      },
    })
    const response = await requestJson(this.options.clock, `${this.options.baseUrl}/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'accept': 'application/json',
        [PAYWALL_PROOF_HEADER]: paywallProof(this.options.proofKey, payment.txid),
      },
      body,
      timeoutMs,
      maxBytes: this.options.maxBytes,
      answer,
    }).catch((error) => {
      if (error instanceof JsonRequestFailure) return undefined
      throw error
    })
    return response?.body
  }
}

/** A remote facilitator's reason, when it is one of our stable codes; `fallback` otherwise. */
function ownCode(reason: string | null | undefined, fallback: ErrorCode): ErrorCode {
  return reason && isErrorCode(reason) ? reason : fallback
}
