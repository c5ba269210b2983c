import { defineError } from '#core/error_codes'

export const E_IDEMPOTENCY_CONFLICT = defineError(
  'idempotency_conflict',
  'This idempotency_key was used for another withdrawal (amount or destination differ); use a new key for a new withdrawal'
)

export const E_WALLET_NOT_LINKED = defineError(
  'wallet_not_linked',
  'Link a withdrawal wallet first (POST /providers/id/:id/link-wallet)'
)

export const E_AMOUNT_BELOW_MINIMUM = defineError<[minimum: string]>(
  'amount_below_minimum',
  'A withdrawal is at least %s µSTX (1 STX)'
)

export const E_AMOUNT_ABOVE_MAXIMUM = defineError<[maximum: string]>(
  'amount_above_maximum',
  'A withdrawal is at most %s µSTX (1000 STX)'
)

export const E_INSUFFICIENT_PENDING_REVENUE = defineError<[available: string]>(
  'insufficient_pending_revenue',
  'The amount is more than the pending revenue (%s µSTX)'
)

export const E_DESTINATION_NOT_LINKED_WALLET = defineError(
  'destination_not_linked_wallet',
  'destination_address must be the linked withdrawal wallet'
)

export const E_WITHDRAWAL_WALLET_ON_HOLD = defineError<[until: string]>(
  'withdrawal_wallet_on_hold',
  'The withdrawal wallet was linked recently: withdrawals to it are held until %s'
)

export const E_WITHDRAWAL_NOT_FOUND = defineError<[id: string]>(
  'withdrawal_not_found',
  'This provider has no withdrawal "%s"'
)
