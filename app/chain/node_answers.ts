import vine from '@vinejs/vine'

/**
 * Schemas for what the Stacks node / Hiro API answers. Chain node answers are
 * outside input like any other: a field we rely on is checked before use.
 */
const txid = () => vine.string().regex(/^0x[0-9a-fA-F]{64}$/)
const uintString = () => vine.string().regex(/^\d+$/)

export const transactionAnswer = vine.create(
  vine
    .object({
      tx_id: txid(),
      tx_status: vine.string(),
      block_height: vine.number().withoutDecimals().min(0).optional(),
      sender_address: vine.string().optional(),
      nonce: vine.number().withoutDecimals().min(0).optional(),
      fee_rate: uintString().optional(),
    })
    .allowUnknownProperties()
)

export const nonceAnswer = vine.create(
  vine
    .object({
      possible_next_nonce: vine.number().withoutDecimals().min(0),
      last_executed_tx_nonce: vine.number().withoutDecimals().min(0).nullable(),
      last_mempool_tx_nonce: vine.number().withoutDecimals().min(0).nullable(),
    })
    .allowUnknownProperties()
)

export const balanceAnswer = vine.create(
  vine.object({ balance: uintString(), locked: uintString().optional() }).allowUnknownProperties()
)

export const accountAnswer = vine.create(
  vine
    .object({
      balance: vine.string().regex(/^0x[0-9a-fA-F]+$/),
      nonce: vine.number().withoutDecimals().min(0),
    })
    .allowUnknownProperties()
)

export const infoAnswer = vine.create(
  vine
    .object({
      network_id: vine.number().withoutDecimals(),
      stacks_tip_height: vine.number().withoutDecimals().min(0),
      burn_block_height: vine.number().withoutDecimals().min(0).optional(),
    })
    .allowUnknownProperties()
)

/** GET /v2/fees/transfer: the node's fee estimate for a transfer, in µSTX per byte. */
export const feeRateAnswer = vine.create(vine.number().withoutDecimals().min(0).max(1_000_000))
