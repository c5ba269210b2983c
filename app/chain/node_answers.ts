import vine from '@vinejs/vine'

/**
 * Schemas for what the Stacks node / Hiro API answers. Chain node answers are
 * outside input like any other: a field we rely on is checked before use.
 * The references they follow (Hiro's published API types, stacks-core's RPC
 * document) and what differed are in docs/devnet.md.
 */
const txid = () => vine.string().regex(/^0x[0-9a-fA-F]{64}$/)
const uintString = () => vine.string().regex(/^\d+$/)

/**
 * Hiro's statuses of a transaction mined without effect: its fee is paid, its
 * payload never runs (`problematic_skipped`: skipped as problematic, Epoch 4.0).
 */
export const FAILED_TX_STATUSES: readonly string[] = [
  'abort_by_response',
  'abort_by_post_condition',
  'problematic_skipped',
]

/** Hiro's statuses of a transaction a node's mempool let go of. */
export const DROPPED_TX_STATUSES: readonly string[] = [
  'dropped_replace_by_fee',
  'dropped_replace_across_fork',
  'dropped_too_expensive',
  'dropped_stale_garbage_collect',
  'dropped_problematic',
]

/**
 * GET /extended/v1/tx/:txid (and each found entry of tx/multiple). `tx_status`
 * stays an open string: a status Hiro adds later reads as still pending
 * (neither confirmed, failed nor dropped) rather than failing every look-up.
 */
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
