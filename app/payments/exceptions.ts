import { defineError } from '#core/error_codes'

/** Unknown txid, or a receipt that does not match: indistinguishable on purpose. */
export const E_PAYMENT_NOT_FOUND = defineError(
  'payment_not_found',
  'No payment with this transaction id and receipt'
)

/** The payer already has the maximum of payments settling; it may retry once one settles. */
export const E_TOO_MANY_PAYMENTS_IN_FLIGHT = defineError(
  'too_many_payments_in_flight',
  'This payer already has 5 payments settling'
)

/** The node rate-limited the broadcast after the retries: it did not take the transaction. */
export const E_SETTLEMENT_UNAVAILABLE = defineError(
  'settlement_unavailable',
  'The Stacks node is rate-limiting; nothing was charged'
)

/** The remote facilitator did not give a usable answer before anything was broadcast. */
export const E_FACILITATOR_UNAVAILABLE = defineError(
  'facilitator_unavailable',
  'The payment facilitator is unavailable; nothing was charged'
)
