import type { Microstx } from '#ledger/money'
import { E_NON_POSITIVE_AMOUNT } from '#ledger/exceptions'

export const PLATFORM_FEE_PERCENT = 3n

/**
 * The split of a paid call (docs/architecture.md#the-paid-call): the fee is rounded down, the
 * provider gets the rest, so the two always sum to the amount exactly.
 */
export function splitPayment(amount: Microstx): { fee: Microstx; providerShare: Microstx } {
  if (amount <= 0n) throw new E_NON_POSITIVE_AMOUNT([amount.toString()])
  const fee = (amount * PLATFORM_FEE_PERCENT) / 100n
  return { fee, providerShare: amount - fee }
}
