import { defineError } from '#core/error_codes'

/** Spending credit (docs/credit.md#credit-tokens); the limits and the balance are 402s of the paywall. */

/** No credit token with this value, or one past its expiry. */
export const E_CREDIT_TOKEN_INVALID = defineError(
  'credit_token_invalid',
  'The credit token is unknown or expired; sign a new message at POST /credit/nonce'
)

/** A retried credit call whose payment-identifier this wallet used for another resource. */
export const E_PAYMENT_IDENTIFIER_CONFLICT = defineError(
  'payment_identifier_conflict',
  'This payment-identifier was used by this wallet for another resource; send a new one'
)

/** A credit call whose commit failed: it may or may not have been debited. */
export const E_CREDIT_CALL_OUTCOME_UNKNOWN = defineError(
  'credit_call_outcome_unknown',
  'The debit of this call was not confirmed; retry with the same payment-identifier to get its answer once'
)
