import { createError } from '@adonisjs/core/exceptions'

/** Unknown txid, or a receipt that does not match: indistinguishable on purpose. */
export const E_PAYMENT_NOT_FOUND = createError(
  'No payment with this transaction id and receipt',
  'E_PAYMENT_NOT_FOUND',
  404
)
