import vine from '@vinejs/vine'
import { stacksWalletAddress } from '#auth/validators'

/** POST /providers/id/:id/withdraw (the limits and the balance are checked by the action, in order). */
export const withdrawValidator = vine.create({
  amount_microstx: vine.number({ strict: true }).withoutDecimals().max(Number.MAX_SAFE_INTEGER),
  destination_address: stacksWalletAddress(),
  idempotency_key: vine.string().trim().uuid(),
})

/** GET /providers/id/:id/withdrawals */
export const listWithdrawalsValidator = vine.create({
  limit: vine.number().withoutDecimals().min(1).optional(),
})
