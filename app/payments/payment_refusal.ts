import type { DeclaredCodes, ErrorCode } from '#core/error_codes'

/**
 * The codes this service's own checks refuse a payment with. They are stable:
 * they reach clients as the 402's error and as x402 `invalidReason` /
 * `errorReason` values, so x402's own names are used wherever x402 has one.
 */
export type PaymentRefusalCode = DeclaredCodes<
  | 'invalid_payload'
  | 'invalid_x402_version'
  | 'unsupported_scheme'
  | 'invalid_network'
  | 'invalid_payment_requirements'
  | 'unsupported_authorization'
  | 'invalid_signature'
  | 'invalid_transaction_type'
  | 'invalid_recipient'
  | 'insufficient_amount'
  | 'post_conditions_not_allowed'
  | 'invalid_amount'
  | 'fee_too_low'
  | 'fee_too_high'
  | 'conflicting_nonce'
  | 'transaction_already_broadcast'
  | 'insufficient_funds'
  | 'bad_nonce'
  | 'payment_already_used'
  | 'payment_failed'
>

/**
 * Why a presented payment was refused, whichever step refused it: the
 * header's decoding (x402_codec.ts), the signed bytes' checks
 * (verify_payment.ts), the checks before broadcast (pre_broadcast_checks.ts),
 * a facilitator's /verify. The paywall and the facilitator answer every
 * refusal from its code alone; the message says why, for tests and logs.
 */
export interface PaymentRefusal {
  /** One of PaymentRefusalCode, or whichever of our codes a remote facilitator answered. */
  code: ErrorCode
  message: string
}

/** What a step that may refuse a payment answers: passed (with what it produced) or refused. */
export type Refusable<Passed extends object = object> =
  ({ ok: true } & Passed) | { ok: false; refusal: PaymentRefusal }

export function paymentRefusal(code: PaymentRefusalCode, message: string): PaymentRefusal {
  return { code, message }
}

export function refuse(
  code: PaymentRefusalCode,
  message: string
): { ok: false; refusal: PaymentRefusal } {
  return { ok: false, refusal: paymentRefusal(code, message) }
}
