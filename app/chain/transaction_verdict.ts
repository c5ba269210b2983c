import type { TransactionStatus } from '#chain/stacks_client'

/** Why a transaction neither mined nor held by the node is over: the failure reason both jobs record. */
export const NONCE_USED_REASON = 'its nonce was used by another transaction'

/**
 * What the node's answers say of a transaction this service sent or was paid
 * with (payments:reconcile and withdrawals:confirm decide by it alike):
 * - `confirmed`: executed successfully in a block;
 * - `aborted`: mined and aborted: its fee paid, its nonce used, never to confirm;
 * - `in_mempool`: the node holds it;
 * - `nonce_used`: neither mined nor held, and its sender's nonce went to
 *   another transaction: it can never be mined (ask once more before acting:
 *   one mined in between shows as mined);
 * - `dropped`: the node let it go (it may still be mined elsewhere);
 * - `unknown`: the node does not know it (never arrived, or lost).
 * `graceOver`: the time it has been out of sight, passed in, reached the grace.
 */
export type TransactionVerdict =
  | { kind: 'confirmed'; blockHeight: number | null }
  | { kind: 'aborted'; status: string }
  | { kind: 'in_mempool' }
  | { kind: 'nonce_used' }
  | { kind: 'dropped'; status: string; graceOver: boolean }
  | { kind: 'unknown'; graceOver: boolean }

export interface NodeAnswers {
  /** The node's answer for the transaction; null or undefined: it does not know it. */
  status: TransactionStatus | null | undefined
  /** The transaction's nonce (null when not recorded). */
  nonce: bigint | null
  /** The sender's last executed nonce (null: none yet); undefined when the node was not asked. */
  lastExecutedNonce?: bigint | null
  /** How long the transaction has been out of the node's sight, by the Clock; null: not yet timed. */
  outOfSightMs: number | null
  graceMs: number
}

export function transactionVerdict(answers: NodeAnswers): TransactionVerdict {
  const { status, nonce, lastExecutedNonce } = answers
  if (status?.confirmed) return { kind: 'confirmed', blockHeight: status.blockHeight }
  if (status?.failed) return { kind: 'aborted', status: status.status }
  if (status && !status.dropped) return { kind: 'in_mempool' }
  if (
    nonce !== null &&
    lastExecutedNonce !== undefined &&
    lastExecutedNonce !== null &&
    nonce <= lastExecutedNonce
  ) {
    return { kind: 'nonce_used' }
  }
  const graceOver = answers.outOfSightMs !== null && answers.outOfSightMs >= answers.graceMs
  return status
    ? { kind: 'dropped', status: status.status, graceOver }
    : { kind: 'unknown', graceOver }
}
