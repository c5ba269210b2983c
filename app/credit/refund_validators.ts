import vine from '@vinejs/vine'
import { challengeSignature, stacksWalletAddress } from '#auth/validators'
import { parseStx } from '#ledger/money'

const stxAmount = () =>
  vine
    .string()
    .trim()
    .regex(/^\d{1,12}(?:\.\d{1,6})?$/)
    .transform((value) => parseStx(value)!)

/** POST /credit/refunds/nonce: the wallet and the amount (STX, up to 6 decimals) it refunds. */
export const refundNonceValidator = vine.create({
  address: stacksWalletAddress(),
  amount_stx: stxAmount(),
})

/** POST /credit/refunds: the issued message and the wallet's signature of it. */
export const refundValidator = vine.create({
  message: vine.string().maxLength(8192),
  signature: challengeSignature(),
})
