import type { StacksTransactionWire } from '@stacks/transactions'
import type { Devnet, HangTimer } from '../src/index.js'
import { broadcast, type JsonResponse } from '../src/testing.js'

export async function getJson<T = Record<string, unknown>>(
  devnet: Devnet,
  path: string
): Promise<JsonResponse<T>> {
  const response = await fetch(`${devnet.url}${path}`)
  return { status: response.status, headers: response.headers, body: (await response.json()) as T }
}

export async function postJson<T = Record<string, unknown>>(
  devnet: Devnet,
  path: string,
  body: unknown,
  method = 'POST'
): Promise<JsonResponse<T>> {
  const response = await fetch(`${devnet.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as T }
}

export interface Rejection {
  error: string
  reason: string
  reason_data: Record<string, unknown>
  txid: string
}

export type HiroTx = Record<string, unknown> & {
  tx_id: string
  tx_status: string
  block_height?: number
  tx_result?: { hex: string; repr: string }
}

export function txStatus(devnet: Devnet, txid: string): Promise<JsonResponse<HiroTx>> {
  return getJson<HiroTx>(devnet, `/extended/v1/tx/0x${txid}`)
}

/** The HTTP status of a GET, body discarded. */
export async function httpStatus(devnet: Devnet, path: string): Promise<number> {
  const response = await fetch(`${devnet.url}${path}`)
  await response.body?.cancel()
  return response.status
}

export async function broadcastStatus(
  devnet: Devnet,
  tx: StacksTransactionWire | Uint8Array
): Promise<number> {
  const response = await broadcast(devnet, tx)
  return response.status
}

export async function txStatusOf(devnet: Devnet, txid: string): Promise<string> {
  const response = await txStatus(devnet, txid)
  return response.body.tx_status
}

/** A hang timer that fires only when the test says so; `pending` lists the delays still due. */
export function manualTimer(): { schedule: HangTimer; pending: () => number[]; fire: () => void } {
  const due = new Set<{ ms: number; callback: () => void }>()
  return {
    schedule: (callback, ms) => {
      const entry = { ms, callback }
      due.add(entry)
      return () => due.delete(entry)
    },
    pending: () => [...due].map((entry) => entry.ms),
    fire: () => {
      for (const entry of due) {
        due.delete(entry)
        entry.callback()
      }
    },
  }
}

/** Whether the promise has settled, read without waiting for it. */
export function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false
  const settle = () => {
    settled = true
  }
  promise.then(settle, settle)
  return () => settled
}
