import vine from '@vinejs/vine'
import {
  type BroadcastOutcome,
  decideBroadcastOutcome,
  normaliseTxid,
} from '#chain/broadcast_outcome'
import { E_CHAIN_NODE_BAD_ANSWER, E_CHAIN_NODE_UNAVAILABLE } from '#chain/exceptions'
import {
  DROPPED_TX_STATUSES,
  FAILED_TX_STATUSES,
  accountAnswer,
  feeRateAnswer,
  infoAnswer,
  nonceAnswer,
  transactionAnswer,
} from '#chain/node_answers'
import type { Clock } from '#core/clock'
import { metrics } from '#metrics/metrics'
import {
  type JsonRequest,
  JsonRequestFailure,
  requestJson,
  validateAnswer,
  type Validates,
} from '#outbound/json_request'

export interface StacksClientOptions {
  /** Stacks node / Hiro API base URL, without a trailing slash. */
  baseUrl: string
  apiKey?: string
  timeoutMs: number
  /** The largest answer read, in bytes. */
  maxBytes: number
  clock: Clock
}

/** Any JSON: decideBroadcastOutcome reads the node's answer to a broadcast. */
const broadcastAnswer = vine.create(vine.any().nullable())

/** tx/multiple: one entry per transaction id asked; each found one is a transactionAnswer. */
const multipleAnswer = vine.create(
  vine.record(vine.object({ found: vine.boolean(), result: vine.any().optional() }))
)

export type TransactionStatus = {
  txid: string
  status: string
  blockHeight: number | null
  /** The one rule for "paid": executed successfully inside a block. */
  confirmed: boolean
  /** Mined without effect (aborted, skipped): fee paid, transfer never made; it will never confirm. */
  failed: boolean
  /**
   * Let go by the node's mempool (replaced by a higher fee, garbage-collected…).
   * Not final: another node may still mine it; only its nonce used by another
   * transaction means it never will.
   */
  dropped: boolean
}

export type NodeInfo = { networkId: number; tipHeight: number }

/**
 * A typed client for the Stacks node RPC and Hiro API endpoints the service
 * uses. Every answer is validated; transport failures become
 * E_CHAIN_NODE_UNAVAILABLE, unexpected bodies E_CHAIN_NODE_BAD_ANSWER.
 * Broadcasting never throws: its outcome (accepted, rejected, rate limited,
 * unknown) is what the caller must act on.
 */
export class StacksClient {
  constructor(private options: StacksClientOptions) {}

  async broadcast(transaction: Uint8Array): Promise<BroadcastOutcome> {
    let answer: { status: number; headers: Headers; body: unknown }
    try {
      answer = await this.#request('/v2/transactions', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: transaction,
        answer: broadcastAnswer,
        reads: () => true,
      })
    } catch (error) {
      if (!(error instanceof JsonRequestFailure)) throw error
      // Only an answer read in full that is not JSON (stacks-node's text/plain
      // refusals) is decided by its status alone; one cut off, timed out or
      // above the cap may have been a 400 with any reason, or none: unknown.
      if (!error.answer || error.kind !== 'malformed_json') {
        return { kind: 'unknown', detail: error.message }
      }
      answer = { ...error.answer, body: undefined }
    }
    return decideBroadcastOutcome(answer.status, answer.body, answer.headers.get('retry-after'))
  }

  /** The transaction as the node knows it, or null when it has never seen it. */
  async getTransaction(txid: string): Promise<TransactionStatus | null> {
    const path = `/extended/v1/tx/0x${normaliseTxid(txid)}`
    try {
      const answer = await this.#request(path, { answer: transactionAnswer })
      return toStatus(answer.body)
    } catch (error) {
      const neverSeen =
        error instanceof JsonRequestFailure &&
        error.kind === 'http_status' &&
        error.answer?.status === 404
      if (neverSeen) return null
      throw chainError(path, error)
    }
  }

  /** Many transactions in one call (Hiro's /extended/v1/tx/multiple). */
  async getTransactions(txids: string[]): Promise<Map<string, TransactionStatus | null>> {
    const found = new Map<string, TransactionStatus | null>()
    if (txids.length === 0) return found
    const query = txids.map((txid) => `tx_id=0x${normaliseTxid(txid)}`).join('&')
    const path = `/extended/v1/tx/multiple?${query}`
    const entries = await this.#get(path, multipleAnswer)
    for (const txid of txids) {
      const entry = entries[`0x${normaliseTxid(txid)}`]
      const answer = entry?.found
        ? await validateAnswer(transactionAnswer, entry.result).catch((error) => {
            throw chainError(path, error)
          })
        : null
      found.set(normaliseTxid(txid), answer && toStatus(answer))
    }
    return found
  }

  async getNonces(address: string) {
    const path = `/extended/v1/address/${encodeURIComponent(address)}/nonces`
    const answer = await this.#get(path, nonceAnswer)
    return {
      possibleNextNonce: BigInt(answer.possible_next_nonce),
      lastExecutedNonce:
        answer.last_executed_tx_nonce === null ? null : BigInt(answer.last_executed_tx_nonce),
      lastMempoolNonce:
        answer.last_mempool_tx_nonce === null ? null : BigInt(answer.last_mempool_tx_nonce),
    }
  }

  /** Balance and next nonce straight from the node's state (/v2/accounts). */
  async getAccount(address: string): Promise<{ balance: bigint; nonce: bigint }> {
    const answer = await this.#get(
      `/v2/accounts/${encodeURIComponent(address)}?proof=0`,
      accountAnswer
    )
    return { balance: BigInt(answer.balance), nonce: BigInt(answer.nonce) }
  }

  /** The node's fee estimate for an STX transfer, in µSTX per byte. */
  async getTransferFeeRate(): Promise<bigint> {
    return BigInt(await this.#get('/v2/fees/transfer', feeRateAnswer))
  }

  async getInfo(timeoutMs?: number): Promise<NodeInfo> {
    const answer = await this.#get('/v2/info', infoAnswer, timeoutMs)
    return { networkId: answer.network_id, tipHeight: answer.stacks_tip_height }
  }

  /** The validated 200 answer to GET `path`; any failure is a declared chain error. */
  async #get<T>(path: string, answer: Validates<T>, timeoutMs?: number): Promise<T> {
    try {
      const answered = await this.#request(path, { answer, timeoutMs })
      return answered.body
    } catch (error) {
      throw chainError(path, error)
    }
  }

  #request<T>(
    path: string,
    request: Omit<JsonRequest<T>, 'timeoutMs' | 'maxBytes'> & { timeoutMs?: number }
  ) {
    const headers: Record<string, string> = { ...request.headers, accept: 'application/json' }
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey
    return requestJson(this.options.clock, `${this.options.baseUrl}${path}`, {
      reads: (status) => status === 200,
      ...request,
      headers,
      timeoutMs: request.timeoutMs ?? this.options.timeoutMs,
      maxBytes: this.options.maxBytes,
    })
  }
}

/**
 * What a failed request to `path` means: no answer in time, no connection or
 * an overloaded node (5xx, 429) is E_CHAIN_NODE_UNAVAILABLE; any other answer
 * we cannot use (status, size, JSON, shape) is E_CHAIN_NODE_BAD_ANSWER.
 */
function chainError(path: string, error: unknown): unknown {
  if (!(error instanceof JsonRequestFailure)) return error
  metrics.chainError(error.kind)
  if (error.kind === 'timeout' || error.kind === 'unreachable') {
    return new E_CHAIN_NODE_UNAVAILABLE([error.message])
  }
  const status = error.answer?.status ?? 0
  if (error.kind === 'http_status' && (status >= 500 || status === 429)) {
    return new E_CHAIN_NODE_UNAVAILABLE([`HTTP ${status} from ${stripQuery(path)}`])
  }
  return new E_CHAIN_NODE_BAD_ANSWER([stripQuery(path)])
}

function toStatus(answer: {
  tx_id: string
  tx_status: string
  block_height?: number
}): TransactionStatus {
  const blockHeight = answer.block_height ?? null
  return {
    txid: normaliseTxid(answer.tx_id),
    status: answer.tx_status,
    blockHeight,
    confirmed: answer.tx_status === 'success' && blockHeight !== null && blockHeight > 0,
    failed: FAILED_TX_STATUSES.includes(answer.tx_status),
    dropped: DROPPED_TX_STATUSES.includes(answer.tx_status),
  }
}

function stripQuery(path: string) {
  return path.split('?')[0]
}
