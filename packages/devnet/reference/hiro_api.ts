import type { OperationResponse } from '@stacks/blockchain-api-client'

/**
 * The Hiro API answers the chain client reads, as Hiro publishes them: the
 * response types of @stacks/blockchain-api-client 9.0.2 (generated from the
 * API's own route schemas, hirosystems/stacks-blockchain-api v9.0.2). The
 * devnet's answer builders are typed with these, so a field the reference
 * requires and the devnet leaves out (or renders with another type) fails
 * the type check. docs/devnet.md lists the routes and what differed.
 */

/** GET /extended/v1/tx/{tx_id}: a mined transaction or a mempool one. */
export type HiroTransaction = OperationResponse['get_transaction_by_id']
export type HiroMinedTransaction = Extract<HiroTransaction, { block_height: number }>
export type HiroMempoolTransaction = Exclude<HiroTransaction, { block_height: number }>
export type HiroTransactionStatus = HiroTransaction['tx_status']
export type HiroTransactionEvent = HiroMinedTransaction['events'][number]

/** GET /extended/v1/tx/multiple: one entry per requested tx id, found or not. */
export type HiroTransactionList = OperationResponse['get_tx_list_details']

/** GET /extended/v1/address/{principal}/nonces */
export type HiroNonces = OperationResponse['get_account_nonces']

/** GET /extended/v1/address/{principal}/stx */
export type HiroStxBalance = OperationResponse['get_account_stx_balance']

/** A 4xx answer (404 for an unknown transaction): `error`, an optional `message`, more allowed. */
export type HiroError = { error: string; message?: string } & { [key: string]: unknown }

const SENDER = 'ST2ZRX0K27GW0SP3GJCEMHD95TQGJMKB7G9Y0X1MH'
const RECIPIENT = 'ST27W5M8BRKA7C5MZE2R1S1F4XTPHFWFRNHA9M04Y'
const TXID = '0x3234000000000000000000000000000000000000000000000000000000000000'

const tokenTransfer = {
  tx_id: TXID,
  nonce: 3,
  fee_rate: '180',
  sender_address: SENDER,
  sponsored: false,
  post_condition_mode: 'deny' as const,
  post_conditions: [],
  anchor_mode: 'any' as const,
  tx_type: 'token_transfer' as const,
  token_transfer: { recipient_address: RECIPIENT, amount: '123456', memo: '0x1234' },
}

/**
 * Answers in the reference's shape, with values from Hiro's own API tests
 * (tests/api/transactions/tx.test.ts, tests/api/mempool/mempool.test.ts):
 * what a real Hiro API sends for an STX transfer in each state.
 */
export const hiroExamples = {
  mined: {
    ...tokenTransfer,
    block_hash: '0xd10ccecfd7ac9e5f8a10de0532fac028559b31a6ff494d82147f6297fb663139',
    block_height: 3,
    block_time: 1637003433,
    block_time_iso: '2021-11-15T19:10:33.000Z',
    burn_block_height: 1,
    burn_block_time: 1637003433,
    burn_block_time_iso: '2021-11-15T19:10:33.000Z',
    parent_burn_block_time: 1637002470,
    parent_burn_block_time_iso: '2021-11-15T18:54:30.000Z',
    parent_block_hash: '0x5678000000000000000000000000000000000000000000000000000000000000',
    canonical: true,
    tx_index: 0,
    tx_status: 'success',
    tx_result: { hex: '0x0703', repr: '(ok true)' },
    event_count: 1,
    events: [
      {
        event_index: 0,
        event_type: 'stx_asset',
        tx_id: TXID,
        asset: {
          asset_event_type: 'transfer',
          sender: SENDER,
          recipient: RECIPIENT,
          amount: '123456',
          memo: '0x1234',
        },
      },
    ],
    is_unanchored: false,
    microblock_hash: '0x',
    microblock_sequence: 2147483647,
    microblock_canonical: true,
    execution_cost_read_count: 0,
    execution_cost_read_length: 0,
    execution_cost_runtime: 0,
    execution_cost_write_count: 0,
    execution_cost_write_length: 0,
    vm_error: null,
  },
  pending: {
    ...tokenTransfer,
    tx_status: 'pending',
    replaced_by_tx_id: null,
    receipt_time: 1594307695,
    receipt_time_iso: '2020-07-09T15:14:55.000Z',
  },
  replaced: {
    ...tokenTransfer,
    tx_status: 'dropped_replace_by_fee',
    replaced_by_tx_id: '0x8913000000000000000000000000000000000000000000000000000000000000',
    receipt_time: 1594307695,
    receipt_time_iso: '2020-07-09T15:14:55.000Z',
  },
} satisfies Record<string, HiroTransaction>

/** A mined transaction whose status is `status` (fee paid; `success` alone moved the STX). */
export function hiroMinedExample(status: HiroMinedTransaction['tx_status']): HiroMinedTransaction {
  if (status === 'success') return hiroExamples.mined
  // Hiro's test of a skipped transaction: `(err none)`; an aborted transfer: `(err u1)`.
  const result =
    status === 'problematic_skipped'
      ? { hex: '0x0809', repr: '(err none)' }
      : { hex: '0x080100000000000000000000000000000001', repr: '(err u1)' }
  return { ...hiroExamples.mined, tx_status: status, tx_result: result, event_count: 0, events: [] }
}

/** A mempool transaction whose status is `status`. */
export function hiroMempoolExample(
  status: HiroMempoolTransaction['tx_status']
): HiroMempoolTransaction {
  return status === 'dropped_replace_by_fee'
    ? hiroExamples.replaced
    : { ...hiroExamples.pending, tx_status: status }
}

export const hiroNoncesExample = {
  last_mempool_tx_nonce: 3,
  last_executed_tx_nonce: 0,
  possible_next_nonce: 4,
  detected_missing_nonces: [2],
  detected_mempool_nonces: [3, 1],
} satisfies HiroNonces
