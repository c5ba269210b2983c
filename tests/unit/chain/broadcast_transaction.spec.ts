import { test } from '@japa/runner'
import { StacksClient } from '#chain/stacks_client'
import { broadcastTransaction } from '#chain/broadcast_transaction'
import { ManualClock } from '#tests/support/clock'
import { transfer, useDevnet } from '#tests/support/devnet'
import { stacksClientOptions } from '#tests/support/chain'

const TRANSACTIONS = '/v2/transactions'

/** Lets every wait elapse at once, moving the time by what was asked: the test reads the waits. */
class SkippingClock extends ManualClock {
  waits: number[] = []

  setTimeout(callback: () => void, delayMs: number) {
    this.waits.push(delayMs)
    const cancel = super.setTimeout(callback, delayMs)
    this.advance(delayMs)
    return cancel
  }
}

test.group('Broadcasting a payment the node rate-limits', (group) => {
  const devnet = useDevnet(group)
  const options = { attempts: 3, firstDelayMs: 5, maxRetryAfterMs: 5_000 }
  let clock: SkippingClock

  group.each.setup(() => {
    clock = new SkippingClock()
  })

  async function broadcast(retryOptions = options) {
    const tx = await transfer({})
    const client = new StacksClient(stacksClientOptions(devnet().url))
    const outcome = await broadcastTransaction(client, tx.serializeBytes(), retryOptions, clock)
    return { tx, outcome, known: await client.getTransaction(tx.txid()) }
  }

  test('waits what the node asks (Retry-After) before each new try', async ({ assert }) => {
    devnet().faults.failNext(2, 429, TRANSACTIONS)
    const startedAt = clock.now()

    const { tx, outcome, known } = await broadcast()

    assert.deepEqual(outcome, { kind: 'accepted', txid: tx.txid() })
    assert.equal(known?.status, 'pending')
    assert.deepEqual(clock.waits, [1_000, 1_000])
    assert.equal(clock.now() - startedAt, 2_000)
  })

  test('never waits longer than maxRetryAfterMs, whatever the node asks', async ({ assert }) => {
    devnet().faults.failNext(2, 429, TRANSACTIONS, { retryAfterSeconds: 30 })

    const { outcome } = await broadcast({ ...options, maxRetryAfterMs: 300 })

    assert.equal(outcome.kind, 'accepted')
    assert.deepEqual(clock.waits, [300, 300])
  })

  test('backs off exponentially when the node names no delay', async ({ assert }) => {
    devnet().faults.failNext(2, 429, TRANSACTIONS, { retryAfterSeconds: null })

    const { outcome } = await broadcast({ ...options, firstDelayMs: 40 })

    assert.equal(outcome.kind, 'accepted')
    assert.deepEqual(clock.waits, [40, 80])
  })

  test('after the last attempt the rate limit is the outcome, and the node has nothing', async ({
    assert,
  }) => {
    devnet().faults.failNext(3, 429, TRANSACTIONS)

    const { outcome, known } = await broadcast()

    assert.deepEqual(outcome, { kind: 'rate_limited', retryAfterSeconds: 1 })
    assert.isNull(known)
    assert.deepEqual(clock.waits, [1_000, 1_000])
  })

  test('any other failure is final at once', async ({ assert }) => {
    devnet().faults.failNext(1, 503, TRANSACTIONS)

    const { outcome } = await broadcast()

    assert.deepEqual(outcome, { kind: 'unknown', detail: 'the node answered HTTP 503' })
    assert.deepEqual(clock.waits, [])
  })
})
