import type { DeclaredCodes } from '#core/error_codes'

/**
 * Why a presented payment was refused. The codes are stable: they reach
 * clients as x402 `invalidReason` / `errorReason` values, so x402's own names
 * are used wherever x402 has one.
 */
export type PaymentErrorCode = DeclaredCodes<
  | 'invalid_payload'
  | 'invalid_network'
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
  | 'invalid_x402_version'
  | 'unsupported_scheme'
>

export type VerificationFailure = { code: PaymentErrorCode; message: string }

export function paymentFailure(code: PaymentErrorCode, message: string): VerificationFailure {
  return { code, message }
}
