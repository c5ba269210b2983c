import { defineError } from '#core/error_codes'

export const E_REFUND_ABOVE_CREDIT = defineError<[available: string]>(
  'refund_above_credit',
  'The amount is more than the credit (%s STX)'
)

export const E_REFUND_BELOW_MINIMUM = defineError<[minimum: string]>(
  'refund_below_minimum',
  'A refund is at least %s STX, or the whole credit'
)

export const E_REFUND_NOT_FOUND = defineError<[id: string]>(
  'refund_not_found',
  'This wallet has no refund "%s"'
)
