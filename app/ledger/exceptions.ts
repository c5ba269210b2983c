import { createError } from '@adonisjs/core/exceptions'

/** A posting whose entries do not sum to zero: a bug in the caller, never posted. */
export const E_UNBALANCED_POSTING = createError<[kind: string, reference: string, total: string]>(
  'Ledger posting %s "%s" does not balance: its entries sum to %s µSTX',
  'E_UNBALANCED_POSTING',
  500
)

/** A posting with no entries, or with an entry of zero µSTX. */
export const E_INVALID_POSTING = createError<[kind: string, reference: string, reason: string]>(
  'Ledger posting %s "%s" is invalid: %s',
  'E_INVALID_POSTING',
  500
)

/** Only a positive amount can be split between the platform and a provider. */
export const E_NON_POSITIVE_AMOUNT = createError<[amount: string]>(
  'Cannot split %s µSTX: the amount must be positive',
  'E_NON_POSITIVE_AMOUNT',
  500
)

/**
 * (kind, reference) was posted before with other entries (TigerBeetle's
 * `exists_with_different_entries`): two different events claim one key, a bug
 * in a caller. Nothing is written.
 */
export const E_EXISTS_WITH_DIFFERENT_ENTRIES = createError<[kind: string, reference: string]>(
  'Ledger posting %s "%s" exists with different entries',
  'E_EXISTS_WITH_DIFFERENT_ENTRIES',
  500
)

/**
 * The posting would debit an account that may not go negative beyond its
 * credits (TigerBeetle's `exceeds_credits`): a provider's pending revenue
 * below zero. Nothing is written.
 */
export const E_EXCEEDS_CREDITS = createError<[kind: string, reference: string, account: string]>(
  'Ledger posting %s "%s" would debit "%s" beyond its credits',
  'E_EXCEEDS_CREDITS',
  500
)
