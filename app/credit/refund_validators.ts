import vine from '@vinejs/vine'
import { challengeSignature, stacksWalletAddress } from '#auth/validators'
import { MAX_CREDIT, stxLimit } from '#credit/credit_token_validators'
import type { Microstx } from '#ledger/money'

/**
 * POST /credit/refunds/nonce: the wallet and the amount it refunds (STX, up
 * to 6 decimals, above 0: a refund of nothing would be a posting of nothing);
 * the amount mutated to µSTX.
 */
export const refundNonceValidator = vine.create({
  address: stacksWalletAddress(),
  amount_stx: vine
    .string()
    .trim()
    .regex(/^\d{1,12}(?:\.\d{1,6})?$/)
    .use(stxLimit({ max: MAX_CREDIT }))
    // stxLimit has mutated the decimal string to µSTX; this gives it that type.
    .transform((amount) => amount as unknown as Microstx),
})

/** POST /credit/refunds: the issued message and the wallet's signature of it. */
export const refundValidator = vine.create({
  message: vine.string().maxLength(8192),
  signature: challengeSignature(),
})
