import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { challengeSignature, stacksWalletAddress } from '#auth/validators'
import { MAX_PRICE } from '#provider_accounts/rules'
import { MICROSTX_PER_STX, parseStx } from '#ledger/money'
import { paymentIdentifierRule } from '#payments/x402_codec'

/** An amount of credit no wallet reaches (far above any number of top-ups): a spend cap's or a refund's bound. */
export const MAX_CREDIT = 1_000_000n * MICROSTX_PER_STX

/**
 * An amount of STX (decimal string or number, ≤ 6 decimals) above zero and at
 * most `max` µSTX, or at most the sibling field `notAbove` names; mutated to µSTX.
 */
export const stxLimit = vine.createRule(
  (value: unknown, options: { max: bigint; notAbove?: string }, field: FieldContext) => {
    const parsed = typeof value === 'string' || typeof value === 'number' ? parseStx(value) : null
    if (parsed === null || parsed <= 0n || parsed > options.max) {
      field.report(
        `The ${field.name} field must be an amount of STX above 0 with at most 6 decimals, at most ${options.max / MICROSTX_PER_STX} STX`,
        'stxLimit',
        field
      )
      return
    }
    const sibling = options.notAbove ? field.parent?.[options.notAbove] : undefined
    const bound =
      typeof sibling === 'bigint'
        ? sibling
        : typeof sibling === 'string' || typeof sibling === 'number'
          ? parseStx(sibling)
          : null
    if (bound !== null && parsed > bound) {
      field.report(
        `The ${field.name} field cannot be more than ${options.notAbove}`,
        'stxLimit',
        field
      )
      return
    }
    field.mutate(parsed, field)
  }
)

/** POST /credit/nonce: the wallet and the limits its credit token will have. */
export const creditNonceValidator = vine.create({
  address: stacksWalletAddress(),
  spend_cap_stx: vine.any().use(stxLimit({ max: MAX_CREDIT })),
  max_price_stx: vine.any().use(stxLimit({ max: MAX_PRICE, notAbove: 'spend_cap_stx' })),
})

/** POST /credit/tokens: the issued message, signed. */
export const creditTokenValidator = vine.create({
  message: vine.string().maxLength(8192),
  signature: challengeSignature(),
})

/** The headers of a call paid from credit. */
export const creditCallHeadersValidator = vine.create({
  'credit-token': vine.string().maxLength(1024),
  'payment-identifier': paymentIdentifierRule().optional(),
})
