import type { NetworkPreset } from '#chain/network'
import type { ErrorCode } from '#core/error_codes'
import { publicUrl } from '#core/public_url'
import { formatStx, type Microstx } from '#ledger/money'
import { type PaymentRequired, paymentRequired, resourceIdentity } from '#payments/x402'

/** The top-up route: its name and path, which are also the paid resource's identity. */
export const TOP_UP_ROUTE = { name: 'credit.top_ups', pattern: '/credit/top-ups' } as const

/** A top-up of `amount`: its query, written the one way whatever the buyer typed ("1.50" is "1.5"). */
function topUpQuery(amount: Microstx) {
  return { amount_stx: formatStx(amount) }
}

/** The identity stored with a top-up's payment, which a replay must match. */
export function topUpResource(amount: Microstx) {
  return resourceIdentity('POST', TOP_UP_ROUTE.pattern, topUpQuery(amount))
}

/**
 * The 402 body (and `payment-required` header) of a top-up: one exact STX
 * requirement of that amount, payable to the platform wallet, with an error
 * code or not (docs/credit.md#top-ups).
 */
export function topUpPaymentRequired(
  amount: Microstx,
  options: { payTo: string; network: NetworkPreset; error?: ErrorCode }
): PaymentRequired {
  return paymentRequired({
    baseUrl: publicUrl(),
    path: TOP_UP_ROUTE.pattern,
    query: topUpQuery(amount),
    description: `Prepaid credit: ${formatStx(amount)} STX added to the paying wallet's balance, spent on paid feed calls without a transfer each`,
    price: amount,
    ...options,
  })
}
