import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Payer, type AccountNonces } from '../src/payer.ts'

/** A Payer whose reads of the account answer `reads` in turn: a next nonce, or the whole answer. */
function payerFrom(next: (bigint | AccountNonces)[], slots = 5) {
  const reads = next.map((read) =>
    typeof read === 'bigint' ? { next: read, lastExecuted: null, missing: [] } : read
  )
  const payer = new Payer(async () => reads.shift()!, slots)
  return { payer, readsLeft: () => reads.length }
}

test('hands out consecutive nonces from one read of the account', async () => {
  const { payer, readsLeft } = payerFrom([7n])
  const nonces = await Promise.all([1, 2, 3].map(() => payer.inOrder(async (nonce) => nonce)))
  assert.deepEqual(nonces, [7n, 8n, 9n])
  assert.equal(readsLeft(), 0)
})

test('a nonce never broadcast is handed out again, lowest first', async () => {
  const { payer } = payerFrom([0n])
  const [a, b, c] = await Promise.all([1, 2, 3].map(() => payer.inOrder(async (nonce) => nonce)))
  payer.done(a, 'unused')
  assert.equal(payer.waitsOnLowerNonce(c), true)
  payer.done(b, 'used')
  assert.equal(await payer.inOrder(async (nonce) => nonce), 0n)
  // The top of the range freed: simply not handed out yet.
  payer.done(c, 'unused')
  assert.equal(await payer.inOrder(async (nonce) => nonce), 2n)
})

test('a step that throws frees its nonce', async () => {
  const { payer } = payerFrom([3n])
  await assert.rejects(
    payer.inOrder(async () => {
      throw new Error('signer down')
    })
  )
  assert.equal(await payer.inOrder(async (nonce) => nonce), 3n)
})

test('after an unknown outcome the account is read again once nothing is in flight', async () => {
  const { payer } = payerFrom([0n, 10n])
  const first = await payer.inOrder(async (nonce) => nonce)
  const second = await payer.inOrder(async (nonce) => nonce)
  payer.done(first, 'unknown')
  // Still one in flight: keep counting.
  assert.equal(await payer.inOrder(async (nonce) => nonce), 2n)
  payer.done(second, 'used')
  payer.done(2n, 'used')
  assert.equal(await payer.inOrder(async (nonce) => nonce), 10n)
})

test('a nonce freed before an unknown outcome is handed out again after the account is read again', async () => {
  // 0 refused before broadcast, 1 lost (never reached the chain), 2 broadcast: the chain holds 2
  // until 0 and 1 arrive, and its next nonce is 3.
  const { payer } = payerFrom([0n, { next: 3n, lastExecuted: null, missing: [1n, 0n] }])
  const [a, b, c] = await Promise.all([1, 2, 3].map(() => payer.inOrder(async (nonce) => nonce)))
  payer.done(a, 'unused')
  payer.done(b, 'unknown')
  payer.done(c, 'used')

  const next = [0, 1, 2].map(() => payer.inOrder(async (nonce) => nonce))

  assert.deepEqual(await Promise.all(next), [0n, 1n, 3n])
})

test('a freed nonce the chain has not reported missing yet is still handed out, one it executed is not', async () => {
  const { payer } = payerFrom([0n, { next: 4n, lastExecuted: 0n, missing: [] }])
  const nonces = await Promise.all([1, 2, 3, 4].map(() => payer.inOrder(async (nonce) => nonce)))
  // 0 and 1 never broadcast (0 was used since by another wallet of the key), 2 unknown, 3 used.
  payer.done(nonces[0], 'unused')
  payer.done(nonces[1], 'unused')
  payer.done(nonces[2], 'unknown')
  payer.done(nonces[3], 'used')

  const next = [0, 1].map(() => payer.inOrder(async (nonce) => nonce))

  assert.deepEqual(await Promise.all(next), [1n, 4n])
})

test('at most `slots` calls hold a slot at once', async () => {
  const { payer } = payerFrom([0n], 2)
  const first = await payer.slot()
  await payer.slot()
  let third = false
  const waiting = payer.slot().then((release) => {
    third = true
    return release
  })
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(third, false)
  first()
  first()
  await waiting
  assert.equal(third, true)
})
