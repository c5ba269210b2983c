import { errors as vineErrors } from '@vinejs/vine'
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
  balanceAnswer,
  feeRateAnswer,
  infoAnswer,
  nonceAnswer,
  transactionAnswer,
} from '#chain/node_answers'

export interface StacksClientOptions {
  /** Stacks node / Hiro API base URL, without a trailing slash. */
  baseUrl: string
  apiKey?: string
  timeoutMs: number
}

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
    let response: Response
    try {
      response = await this.#fetch('/v2/transactions', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: transaction,
      })
    } catch (error) {
      return { kind: 'unknown', detail: describeTransportError(error) }
    }
    const text = await response.text().catch(() => '')
    return decideBroadcastOutcome(
      response.status,
      parseJson(text),
      response.headers.get('retry-after')
    )
  }

  /** The transaction as the node knows it, or null when it has never seen it. */
  async getTransaction(txid: string): Promise<TransactionStatus | null> {
    const path = `/extended/v1/tx/0x${normaliseTxid(txid)}`
    const response = await this.#request(path)
    if (response.status === 404) return null
    return toStatus(await this.#validate(path, transactionAnswer, await this.#json(path, response)))
  }

  /** Many transactions in one call (Hiro's /extended/v1/tx/multiple). */
  async getTransactions(txids: string[]): Promise<Map<string, TransactionStatus | null>> {
    const found = new Map<string, TransactionStatus | null>()
    if (txids.length === 0) return found
    const query = txids.map((txid) => `tx_id=0x${normaliseTxid(txid)}`).join('&')
    const path = `/extended/v1/tx/multiple?${query}`
    const body = await this.#json(path, await this.#request(path))
    if (typeof body !== 'object' || body === null)
      throw new E_CHAIN_NODE_BAD_ANSWER(['/extended/v1/tx/multiple'])
    const entries = body as Record<string, { found?: unknown; result?: unknown }>
    for (const txid of txids) {
      const entry = entries[`0x${normaliseTxid(txid)}`]
      found.set(
        normaliseTxid(txid),
        entry?.found === true
          ? toStatus(await this.#validate(path, transactionAnswer, entry.result))
          : null
      )
    }
    return found
  }

  async getNonces(address: string) {
    const path = `/extended/v1/address/${encodeURIComponent(address)}/nonces`
    const answer = await this.#validate(
      path,
      nonceAnswer,
      await this.#json(path, await this.#request(path))
    )
    return {
      possibleNextNonce: BigInt(answer.possible_next_nonce),
      lastExecutedNonce:
        answer.last_executed_tx_nonce === null ? null : BigInt(answer.last_executed_tx_nonce),
      lastMempoolNonce:
        answer.last_mempool_tx_nonce === null ? null : BigInt(answer.last_mempool_tx_nonce),
    }
  }

  /** Unlocked STX balance in µSTX. */
  async getBalance(address: string): Promise<bigint> {
    const path = `/extended/v1/address/${encodeURIComponent(address)}/stx`
    const answer = await this.#validate(
      path,
      balanceAnswer,
      await this.#json(path, await this.#request(path))
    )
    return BigInt(answer.balance) - BigInt(answer.locked ?? '0')
  }

  /** Balance and next nonce straight from the node's state (/v2/accounts). */
  async getAccount(address: string): Promise<{ balance: bigint; nonce: bigint }> {
    const path = `/v2/accounts/${encodeURIComponent(address)}?proof=0`
    const answer = await this.#validate(
      path,
      accountAnswer,
      await this.#json(path, await this.#request(path))
    )
    return { balance: BigInt(answer.balance), nonce: BigInt(answer.nonce) }
  }

  /** The node's fee estimate for an STX transfer, in µSTX per byte. */
  async getTransferFeeRate(): Promise<bigint> {
    const path = '/v2/fees/transfer'
    const rate = await this.#validate(
      path,
      feeRateAnswer,
      await this.#json(path, await this.#request(path))
    )
    return BigInt(rate)
  }

  async getInfo(timeoutMs?: number): Promise<NodeInfo> {
    const path = '/v2/info'
    const answer = await this.#validate(
      path,
      infoAnswer,
      await this.#json(path, await this.#request(path, timeoutMs))
    )
    return { networkId: answer.network_id, tipHeight: answer.stacks_tip_height }
  }

  async #request(path: string, timeoutMs?: number): Promise<Response> {
    let response: Response
    try {
      response = await this.#fetch(path, {}, timeoutMs)
    } catch (error) {
      throw new E_CHAIN_NODE_UNAVAILABLE([describeTransportError(error)])
    }
    if (response.status >= 500 || response.status === 429) {
      await response.body?.cancel()
      throw new E_CHAIN_NODE_UNAVAILABLE([`HTTP ${response.status} from ${stripQuery(path)}`])
    }
    return response
  }

  async #json(path: string, response: Response): Promise<unknown> {
    const text = await response.text().catch(() => '')
    const body = parseJson(text)
    if (body === undefined || (response.status !== 200 && response.status !== 404)) {
      throw new E_CHAIN_NODE_BAD_ANSWER([stripQuery(path)])
    }
    return body
  }

  async #validate<T>(
    path: string,
    validator: { validate(data: unknown): Promise<T> },
    data: unknown
  ): Promise<T> {
    try {
      return await validator.validate(data)
    } catch (error) {
      if (error instanceof vineErrors.E_VALIDATION_ERROR)
        throw new E_CHAIN_NODE_BAD_ANSWER([stripQuery(path)])
      throw error
    }
  }

  #fetch(path: string, init: RequestInit, timeoutMs?: number) {
    const headers = new Headers(init.headers)
    headers.set('accept', 'application/json')
    if (this.options.apiKey) headers.set('x-api-key', this.options.apiKey)
    return fetch(`${this.options.baseUrl}${path}`, {
      ...init,
      headers,
      signal: AbortSignal.timeout(timeoutMs ?? this.options.timeoutMs),
    })
  }
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function stripQuery(path: string) {
  return path.split('?')[0]
}

function describeTransportError(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'timed out'
  if (error instanceof Error) {
    const cause = error.cause as { code?: string } | undefined
    return cause?.code ?? error.message
  }
  return 'unknown transport error'
}
