import { test } from '@japa/runner'
import type { TransactionStatus } from '#chain/stacks_client'
import {
  type NodeAnswers,
  type TransactionVerdict,
  transactionVerdict,
} from '#chain/transaction_verdict'

function status(overrides: Partial<TransactionStatus>): TransactionStatus {
  return {
    txid: 'ab'.repeat(32),
    status: 'pending',
    blockHeight: null,
    confirmed: false,
    failed: false,
    dropped: false,
    ...overrides,
  }
}

const MINED = status({ status: 'success', blockHeight: 7, confirmed: true })
const ABORTED = status({ status: 'abort_by_response', blockHeight: 7, failed: true })
const IN_MEMPOOL = status({})
const DROPPED = status({ status: 'dropped_replace_by_fee', dropped: true })

/** Nonce 3, its sender's last executed nonce 2 (not used), no time out of sight, a 10 s grace. */
const BASE: NodeAnswers = {
  status: null,
  nonce: 3n,
  lastExecutedNonce: 2n,
  outOfSightMs: null,
  graceMs: 10_000,
}

test.group('What the node answers say of a transaction', () => {
  const cases: [string, Partial<NodeAnswers>, TransactionVerdict][] = [
    ['mined', { status: MINED }, { kind: 'confirmed', blockHeight: 7 }],
    [
      'mined, its nonce used (by itself)',
      { status: MINED, lastExecutedNonce: 3n },
      { kind: 'confirmed', blockHeight: 7 },
    ],
    [
      'aborted on chain',
      { status: ABORTED, lastExecutedNonce: 3n },
      { kind: 'aborted', status: 'abort_by_response' },
    ],
    ['in the mempool', { status: IN_MEMPOOL }, { kind: 'in_mempool' }],
    [
      'in the mempool, its nonce used',
      { status: IN_MEMPOOL, lastExecutedNonce: 5n },
      { kind: 'in_mempool' },
    ],
    [
      'dropped, its nonce used by another',
      { status: DROPPED, lastExecutedNonce: 3n },
      { kind: 'nonce_used' },
    ],
    ['unknown, its nonce used by another', { lastExecutedNonce: 4n }, { kind: 'nonce_used' }],
    [
      'dropped, nonce free, not yet timed',
      { status: DROPPED },
      { kind: 'dropped', status: 'dropped_replace_by_fee', graceOver: false },
    ],
    [
      'dropped within the grace',
      { status: DROPPED, outOfSightMs: 9_999 },
      { kind: 'dropped', status: 'dropped_replace_by_fee', graceOver: false },
    ],
    [
      'dropped past the grace',
      { status: DROPPED, outOfSightMs: 10_000 },
      { kind: 'dropped', status: 'dropped_replace_by_fee', graceOver: true },
    ],
    ['unknown within the grace', { outOfSightMs: 9_999 }, { kind: 'unknown', graceOver: false }],
    ['unknown past the grace', { outOfSightMs: 10_000 }, { kind: 'unknown', graceOver: true }],
    [
      'unknown, the lookup undefined',
      { status: undefined, outOfSightMs: 0, graceMs: 0 },
      { kind: 'unknown', graceOver: true },
    ],
    [
      'unknown, the nonces not asked',
      { lastExecutedNonce: undefined, nonce: 0n },
      { kind: 'unknown', graceOver: false },
    ],
    [
      'unknown, no nonce executed yet',
      { lastExecutedNonce: null, nonce: 0n },
      { kind: 'unknown', graceOver: false },
    ],
    [
      'unknown, its nonce not recorded',
      { lastExecutedNonce: 9n, nonce: null },
      { kind: 'unknown', graceOver: false },
    ],
  ]
  for (const [title, answers, verdict] of cases) {
    test(title, ({ assert }) => {
      assert.deepEqual(transactionVerdict({ ...BASE, ...answers }), verdict)
    })
  }
})
