import { ChainId } from '@stacks/network'
import { Cl, serializeCV } from '@stacks/transactions'
import type {
  HiroError,
  HiroMempoolTransaction,
  HiroMinedTransaction,
  HiroNonces,
  HiroStxBalance,
  HiroTransaction,
  HiroTransactionEvent,
} from '../reference/hiro_api.js'
import type { ChainState, TxRecord } from './chain_state.js'
import { MIN_FEE_RATE_PER_BYTE, hexU128 } from './transaction_admission.js'

/**
 * Internal chain records rendered as the Hiro API and stacks-node RPC render
 * them. Amounts are decimal strings where Hiro uses strings, hex u128 where
 * stacks-node does (/v2/accounts), never JSON numbers that could lose µSTX.
 * The Hiro answers are typed with the types Hiro publishes (reference/), so
 * the type check holds them to the reference; the stacks-node ones are
 * checked against stacks-core's documented fields in tests/reference_shapes.spec.ts.
 */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

const SERVER_VERSION = 'tollbooth-devnet'
/** stacks-core's PEER_VERSION_TESTNET. */
const PEER_VERSION_TESTNET = 0xfacade01
/** Bitcoin testnet/regtest network magic, what testnet nodes report as parent network. */
const PARENT_NETWORK_ID = 0xdab5bffa
/** stacks-node's marker for "not in a microblock". */
const NO_MICROBLOCK_SEQUENCE = 2147483647
/** Bytes a single-signature transaction adds around its payload. */
const SINGLE_SIG_OVERHEAD_BYTES = 115
const FEE_RATES = [1, 1.5, 2] as const

const RESULT_OK_TRUE = {
  hex: `0x${serializeCV(Cl.ok(Cl.bool(true)))}`,
  repr: '(ok true)',
}
// Clarity's stx-transfer? error for an insufficient balance.
const RESULT_ERR_U1 = {
  hex: `0x${serializeCV(Cl.error(Cl.uint(1)))}`,
  repr: '(err u1)',
}

export function with0x(hex: string): string {
  return hex.startsWith('0x') ? hex : `0x${hex}`
}

export function hiroTransaction(record: TxRecord): HiroTransaction {
  const { tx } = record
  const base = {
    tx_id: with0x(tx.txid),
    nonce: Number(tx.nonce),
    fee_rate: tx.fee.toString(),
    sender_address: tx.sender,
    sponsored: false,
    post_condition_mode: tx.postConditionMode,
    // Post-conditions are not rendered; token transfers do not enforce them.
    post_conditions: [],
    anchor_mode: tx.anchorMode,
    tx_type: 'token_transfer' as const,
    token_transfer: {
      recipient_address: tx.recipient,
      amount: tx.amount.toString(),
      memo: with0x(tx.memoHex),
    },
  }

  const { status } = record
  if (status === 'pending' || status === 'dropped_replace_by_fee') {
    const receiptTime = Math.floor(record.receivedAt / 1000)
    return {
      ...base,
      tx_status: status,
      replaced_by_tx_id: record.replacedBy ? with0x(record.replacedBy) : null,
      receipt_time: receiptTime,
      receipt_time_iso: isoSeconds(receiptTime),
    } satisfies HiroMempoolTransaction
  }

  const { block, parentBlock, txIndex } = record
  if (!block || !parentBlock || txIndex === null) {
    throw new Error(`transaction ${tx.txid} is ${status} but has no block`)
  }
  const succeeded = status === 'success'
  const events: HiroTransactionEvent[] = succeeded
    ? [
        {
          event_index: 0,
          event_type: 'stx_asset',
          tx_id: with0x(tx.txid),
          asset: {
            asset_event_type: 'transfer',
            sender: tx.sender,
            recipient: tx.recipient,
            amount: tx.amount.toString(),
            memo: with0x(tx.memoHex),
          },
        },
      ]
    : []
  return {
    ...base,
    tx_status: status,
    block_hash: with0x(block.hash),
    block_height: block.height,
    block_time: block.burnBlockTime,
    block_time_iso: isoSeconds(block.burnBlockTime),
    burn_block_height: block.burnBlockHeight,
    burn_block_time: block.burnBlockTime,
    burn_block_time_iso: isoSeconds(block.burnBlockTime),
    parent_burn_block_time: parentBlock.burnBlockTime,
    parent_burn_block_time_iso: isoSeconds(parentBlock.burnBlockTime),
    parent_block_hash: with0x(parentBlock.hash),
    canonical: true,
    tx_index: txIndex,
    tx_result: succeeded ? RESULT_OK_TRUE : RESULT_ERR_U1,
    event_count: events.length,
    events,
    execution_cost_read_count: 0,
    execution_cost_read_length: 0,
    execution_cost_runtime: 0,
    execution_cost_write_count: 0,
    execution_cost_write_length: 0,
    // A transfer runs no Clarity code that could raise a VM error.
    vm_error: null,
    is_unanchored: false,
    microblock_hash: '0x',
    microblock_sequence: NO_MICROBLOCK_SEQUENCE,
    microblock_canonical: true,
  } satisfies HiroMinedTransaction
}

export function hiroTransactionNotFound(txid: string): HiroError {
  return { error: 'could not find transaction by ID', tx_id: with0x(txid) }
}

/** GET /extended/v1/address/:principal/nonces */
export function hiroNonces(state: ChainState, principal: string): HiroNonces {
  const next = state.nextNonce(principal)
  const lastExecuted = next > 0n ? next - 1n : null
  const mempoolNonces = state.pendingFrom(principal).map((tx) => tx.nonce)
  const lastMempool = mempoolNonces.length > 0 ? mempoolNonces[mempoolNonces.length - 1] : null

  const missing: number[] = []
  if (lastMempool !== null) {
    const inMempool = new Set(mempoolNonces)
    for (let nonce = lastMempool - 1n; nonce >= next; nonce--) {
      if (!inMempool.has(nonce)) missing.push(Number(nonce))
    }
  }
  const highest = [lastExecuted, lastMempool].reduce<bigint | null>(
    (max, value) => (value !== null && (max === null || value > max) ? value : max),
    null
  )
  return {
    last_mempool_tx_nonce: lastMempool === null ? null : Number(lastMempool),
    last_executed_tx_nonce: lastExecuted === null ? null : Number(lastExecuted),
    possible_next_nonce: highest === null ? 0 : Number(highest + 1n),
    detected_missing_nonces: missing,
    detected_mempool_nonces: mempoolNonces.map(Number).sort((a, b) => b - a),
  }
}

/** GET /extended/v1/address/:principal/stx */
export function hiroStxBalance(state: ChainState, principal: string): HiroStxBalance {
  const account = state.account(principal)
  const outbound = state.pendingFrom(principal).reduce((sum, tx) => sum + tx.amount + tx.fee, 0n)
  const inbound = state.pendingTo(principal).reduce((sum, tx) => sum + tx.amount, 0n)
  return {
    balance: account.balance.toString(),
    estimated_balance: (account.balance - outbound + inbound).toString(),
    pending_balance_inbound: inbound.toString(),
    pending_balance_outbound: outbound.toString(),
    total_sent: account.totalSent.toString(),
    total_received: account.totalReceived.toString(),
    total_fees_sent: account.totalFeesSent.toString(),
    total_miner_rewards_received: '0',
    lock_tx_id: '',
    locked: '0',
    lock_height: 0,
    burnchain_lock_height: 0,
    burnchain_unlock_height: 0,
  }
}

/**
 * GET /v2/accounts/:principal (stacks-node). The devnet keeps no MARF, so it
 * answers as a node asked with `?proof=0` does: without `balance_proof` and
 * `nonce_proof`.
 */
export function nodeAccount(state: ChainState, principal: string): JsonObject {
  const account = state.account(principal)
  return {
    balance: hexU128(account.balance),
    locked: hexU128(0n),
    unlock_height: 0,
    nonce: Number(account.nonce),
  }
}

/** GET /v2/info (stacks-node) */
export function nodeInfo(state: ChainState): JsonObject {
  const tip = state.tip
  return {
    peer_version: PEER_VERSION_TESTNET,
    pox_consensus: tip.consensusHash,
    burn_block_height: tip.burnBlockHeight,
    stable_pox_consensus: tip.consensusHash,
    stable_burn_block_height: tip.burnBlockHeight,
    server_version: SERVER_VERSION,
    network_id: ChainId.Testnet,
    parent_network_id: PARENT_NETWORK_ID,
    stacks_tip_height: tip.height,
    stacks_tip: tip.hash,
    stacks_tip_consensus_hash: tip.consensusHash,
    genesis_chainstate_hash: state.genesis.hash,
    unanchored_tip: null,
    unanchored_seq: null,
    tenure_height: tip.height,
    exit_at_block_height: null,
    is_fully_synced: true,
  }
}

/** GET /extended (Hiro status) */
export function hiroStatus(state: ChainState): JsonObject {
  const tip = state.tip
  return {
    server_version: SERVER_VERSION,
    status: 'ready',
    chain_tip: {
      block_height: tip.height,
      block_hash: with0x(tip.hash),
      index_block_hash: with0x(tip.hash),
      burn_block_height: tip.burnBlockHeight,
    },
  }
}

/**
 * POST /v2/fees/transaction. Without `estimated_len` the payload alone would
 * under-price a real transaction, so a single-sig envelope is assumed.
 */
export function nodeFeeEstimate(payloadLength: number, estimatedLength: number | null): JsonObject {
  const length = Math.max(estimatedLength ?? 0, payloadLength + SINGLE_SIG_OVERHEAD_BYTES)
  const minimumRate = Number(MIN_FEE_RATE_PER_BYTE)
  return {
    estimated_cost: { write_length: 0, write_count: 0, read_length: 0, read_count: 0, runtime: 0 },
    estimated_cost_scalar: 1,
    cost_scalar_change_by_byte: 0.00476837158203125,
    estimations: FEE_RATES.map((rate) => ({
      fee_rate: rate * minimumRate,
      fee: Math.ceil(rate * minimumRate * length),
    })),
  }
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString()
}
