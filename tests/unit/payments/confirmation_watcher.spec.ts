import { test } from '@japa/runner'
import { StacksClient } from '#chain/stacks_client'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { ManualClock } from '#tests/support/clock'
import { transfer, useDevnet } from '#tests/support/devnet'
import { stacksClientOptions } from '#tests/support/chain'

/** Counts the chain API calls the watcher makes, and lets the test wait for their answers. */
class CountingClient extends StacksClient {
  calls = 0
  #answers: Promise<unknown>[] = []

  getTransactions(txids: string[]) {
    this.calls++
    const answer = super.getTransactions(txids)
    this.#answers.push(answer.catch(() => {}))
    return answer
  }

  /** Resolves once every call made so far has been answered. */
  async answered() {
    await Promise.all(this.#answers)
  }
}

test.group('Watching payments for confirmation', (group) => {
  const devnet = useDevnet(group)
  let clock: ManualClock
  let client: CountingClient

  group.each.setup(() => {
    clock = new ManualClock()
    client = new CountingClient(stacksClientOptions(devnet().url))
  })

  /** Moves the clock `ms` forward in steps of `stepMs`, letting each poll's chain call be answered. */
  async function elapse(ms: number, stepMs = 5) {
    for (let elapsed = 0; elapsed < ms; elapsed += stepMs) {
      clock.advance(Math.min(stepMs, ms - elapsed))
      await client.answered()
    }
  }

  test('twenty payments confirmed in one block cost a handful of chain calls, not twenty', async ({
    assert,
  }) => {
    const watcher = new ConfirmationWatcher(client, clock, { firstPollMs: 5, pollIntervalMs: 20 })
    const txs = await Promise.all(
      Array.from({ length: 20 }, (_, nonce) => transfer({ nonce: BigInt(nonce) }))
    )
    for (const tx of txs) await client.broadcast(tx.serializeBytes())

    const outcomes = Promise.all(txs.map((tx) => watcher.wait(tx.txid(), 2_000)))
    await elapse(5)
    await devnet().mine()
    await elapse(20)

    const results = await outcomes
    assert.isTrue(results.every((outcome) => outcome.state === 'confirmed'))
    assert.equal(client.calls, 2)
    assert.equal(clock.pendingTimers, 0, 'nothing left to poll for')
  })

  test('concurrent look-ups share one chain call and say which transactions the node knows', async ({
    assert,
  }) => {
    const watcher = new ConfirmationWatcher(client, clock, {
      firstPollMs: 500,
      pollIntervalMs: 2_000,
      lookupBatchMs: 5,
    })
    const known = await transfer({ nonce: 0n })
    await client.broadcast(known.serializeBytes())
    const unknown = await Promise.all(
      Array.from({ length: 9 }, (_, index) => transfer({ nonce: BigInt(index + 1) }))
    )

    const lookups = Promise.all([
      watcher.lookup(known.txid()),
      ...unknown.map((tx) => watcher.lookup(tx.txid())),
    ])
    clock.advance(5)
    const [found, ...missing] = await lookups

    assert.equal(client.calls, 1)
    assert.equal(found?.status, 'pending')
    assert.deepEqual(missing, Array(9).fill(null))
  })

  test('a later arrival never postpones a poll that is already due', async ({ assert }) => {
    const watcher = new ConfirmationWatcher(client, clock, {
      firstPollMs: 30,
      pollIntervalMs: 2_000,
    })
    const first = await transfer({})
    const answered = watcher.lookup(first.txid())
    // A resettable 30 ms timer would be pushed out by every arrival, here every 10 ms.
    const arrivals: Promise<unknown>[] = []
    for (let arrival = 0; arrival < 2; arrival++) {
      clock.advance(10)
      arrivals.push(watcher.lookup(first.txid()))
    }

    clock.advance(10)

    assert.equal(client.calls, 1)
    assert.deepEqual(await Promise.all([answered, ...arrivals]), [null, null, null])
    watcher.stop()
  })

  test('an aborted transaction is reported failed', async ({ assert }) => {
    const watcher = new ConfirmationWatcher(client, clock, { firstPollMs: 5, pollIntervalMs: 20 })
    const tx = await transfer({})
    await client.broadcast(tx.serializeBytes())
    devnet().faults.abort(tx.txid())
    await devnet().mine()

    const outcome = watcher.wait(tx.txid(), 1_000)
    await elapse(5)

    assert.containsSubset(await outcome, { state: 'failed' })
  })

  test('a transaction still unmined when the wait ends is pending, and polling stops', async ({
    assert,
  }) => {
    const watcher = new ConfirmationWatcher(client, clock, { firstPollMs: 5, pollIntervalMs: 20 })
    const tx = await transfer({})
    await client.broadcast(tx.serializeBytes())

    const outcome = watcher.wait(tx.txid(), 100)
    await elapse(100)
    const callsAtTimeout = client.calls
    await elapse(80)

    assert.deepEqual(await outcome, { state: 'pending' })
    assert.equal(callsAtTimeout, 5)
    assert.equal(client.calls, callsAtTimeout)
    assert.equal(clock.pendingTimers, 0)
  })

  test('a node that fails to answer does not lose the waiters', async ({ assert }) => {
    const watcher = new ConfirmationWatcher(client, clock, { firstPollMs: 5, pollIntervalMs: 20 })
    const tx = await transfer({})
    await client.broadcast(tx.serializeBytes())
    await devnet().mine()
    devnet().faults.failNext(2, 503)

    const outcome = watcher.wait(tx.txid(), 1_000)
    await elapse(45)

    assert.containsSubset(await outcome, { state: 'confirmed' })
    assert.equal(client.calls, 3)
  })

  test('stop() answers every waiter pending and fails the look-ups', async ({ assert }) => {
    const watcher = new ConfirmationWatcher(client, clock, { firstPollMs: 5, pollIntervalMs: 20 })
    const tx = await transfer({})

    const outcome = watcher.wait(tx.txid(), 1_000)
    const lookup = watcher.lookup(tx.txid())
    watcher.stop()

    assert.deepEqual(await outcome, { state: 'pending' })
    await assert.rejects(() => lookup, 'the confirmation watcher stopped')
    assert.equal(client.calls, 0)
    assert.equal(clock.pendingTimers, 0)
  })
})
