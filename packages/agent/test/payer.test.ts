import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Payer } from '../src/payer.ts'

function payerFrom(next: bigint[], slots = 5) {
  const reads = [...next]
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
