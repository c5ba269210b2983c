import type { Group } from '@japa/runner/core'
import { makeSTXTokenTransfer, type StacksTransactionWire } from '@stacks/transactions'
import type { StacksNetwork } from '@stacks/network'
import { startDevnet, type Devnet, type StartDevnetOptions } from './index.js'

export const SENDER = {
  address: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
  privateKey: '7287ba251d44a4d3fd9276c88ce34c5c52a038955511cccaf77e61068649c17801',
}
export const RECIPIENT = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG'
/** A comfortably sufficient fee for a ~180-byte transfer at 1 µSTX/byte. */
export const FEE = 1_000n

/**
 * Gives each test of the group a fresh manual-mining devnet on a free port,
 * stopped after the test. Read it through the returned getter.
 */
export function useDevnet(group: Group, options: StartDevnetOptions = {}): () => Devnet {
  let devnet: Devnet | null = null
  group.each.setup(async () => {
    devnet = await startDevnet({ port: 0, blockTimeMs: null, ...options })
    return async () => {
      await devnet?.stop()
      devnet = null
    }
  })
  return () => {
    if (!devnet) throw new Error('devnet is not running')
    return devnet
  }
}

export function transfer(options: {
  senderKey?: string
  recipient?: string
  amount?: bigint
  fee?: bigint
  nonce?: bigint
  memo?: string
  network?: StacksNetwork | 'devnet' | 'mainnet'
}): Promise<StacksTransactionWire> {
  return makeSTXTokenTransfer({
    senderKey: options.senderKey ?? SENDER.privateKey,
    recipient: options.recipient ?? RECIPIENT,
    amount: options.amount ?? 1_000_000n,
    fee: options.fee ?? FEE,
    nonce: options.nonce ?? 0n,
    memo: options.memo,
    network: options.network ?? 'devnet',
  })
}

export interface JsonResponse<T = unknown> {
  status: number
  headers: Headers
  body: T
}

/**
 * POST /v2/transactions as stacks.js does (JSON) or as raw bytes. The body is
 * the parsed JSON, or the text of a text/plain refusal (bytes that do not decode).
 */
export async function broadcast<T = unknown>(
  devnet: Devnet,
  tx: StacksTransactionWire | Uint8Array,
  encoding: 'json' | 'octet-stream' = 'json'
): Promise<JsonResponse<T>> {
  const bytes = tx instanceof Uint8Array ? tx : tx.serializeBytes()
  const response = await fetch(`${devnet.url}/v2/transactions`, {
    method: 'POST',
    headers: {
      'content-type': encoding === 'json' ? 'application/json' : 'application/octet-stream',
    },
    body: encoding === 'json' ? JSON.stringify({ tx: Buffer.from(bytes).toString('hex') }) : bytes,
  })
  const text = await response.text()
  const isJson = response.headers.get('content-type')?.startsWith('application/json')
  return {
    status: response.status,
    headers: response.headers,
    body: (isJson ? JSON.parse(text) : text) as T,
  }
}
