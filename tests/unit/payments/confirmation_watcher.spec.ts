import { test } from '@japa/runner'
import { StacksClient } from '#chain/stacks_client'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { transfer, useDevnet } from '#tests/support/devnet'

/** Counts the chain API calls the watcher makes. */
class CountingClient extends StacksClient {
  calls = 0
  async getTransactions(txids: string[]) {
    this.calls++
    return super.getTransactions(txids)
  }
}

test.group('Watching payments for confirmation', (group) => {
  const devnet = useDevnet(group)

  test('twenty payments confirmed in one block cost a handful of chain calls, not twenty', async ({
    assert,
  }) => {
    const client = new CountingClient({ baseUrl: devnet().url, timeoutMs: 1_000 })
    const watcher = new ConfirmationWatcher(client, { firstPollMs: 5, pollIntervalMs: 20 })
    const txs = await Promise.all(
      Array.from({ length: 20 }, (_, nonce) => transfer({ nonce: BigInt(nonce) }))
    )
    for (const tx of txs) await client.broadcast(tx.serializeBytes())

    const outcomes = Promise.all(txs.map((tx) => watcher.wait(tx.txid(), 2_000)))
    setTimeout(() => void devnet().mine(), 60)

    const results = await outcomes
    assert.isTrue(results.every((outcome) => outcome.state === 'confirmed'))
    assert.isAtMost(client.calls, 8)
    assert.equal(watcher.waitingCount, 0)
  })

  test('concurrent look-ups share one chain call and say which transactions the node knows', async ({
    assert,
  }) => {
    const client = new CountingClient({ baseUrl: devnet().url, timeoutMs: 1_000 })
    const watcher = new ConfirmationWatcher(client, {
      firstPollMs: 500,
      pollIntervalMs: 2_000,
      lookupBatchMs: 5,
    })
    const known = await transfer({ nonce: 0n })
    await client.broadcast(known.serializeBytes())
    const unknown = await Promise.all(
      Array.from({ length: 9 }, (_, index) => transfer({ nonce: BigInt(index + 1) }))
    )

    const [found, ...missing] = await Promise.all([
      watcher.lookup(known.txid()),
      ...unknown.map((tx) => watcher.lookup(tx.txid())),
    ])

    assert.equal(client.calls, 1)
    assert.equal(found?.status, 'pending')
    assert.deepEqual(missing, Array(9).fill(null))
  })

  test('a later arrival never postpones a poll that is already due', async ({ assert }) => {
    const client = new CountingClient({ baseUrl: devnet().url, timeoutMs: 1_000 })
    const watcher = new ConfirmationWatcher(client, { firstPollMs: 30, pollIntervalMs: 2_000 })
    const first = await transfer({ nonce: 0n })
    const started = performance.now()
    const answered = watcher.lookup(first.txid())
    // Arrivals every 10 ms would push a resettable 30 ms timer out forever.
    const arrivals = setInterval(() => watcher.lookup(first.txid()).catch(() => {}), 10)
    await answered
    clearInterval(arrivals)
    assert.isBelow(performance.now() - started, 200)
    watcher.stop()
  })

  test('an aborted transaction is reported failed', async ({ assert }) => {
    const client = new CountingClient({ baseUrl: devnet().url, timeoutMs: 1_000 })
    const watcher = new ConfirmationWatcher(client, { firstPollMs: 5, pollIntervalMs: 20 })
    const tx = await transfer({})
    await client.broadcast(tx.serializeBytes())
    devnet().faults.abort(tx.txid())
    await devnet().mine()

    const outcome = await watcher.wait(tx.txid(), 1_000)

    assert.equal(outcome.state, 'failed')
  })

  test('a transaction still unmined when the wait ends is pending, and polling stops', async ({
    assert,
  }) => {
    const client = new CountingClient({ baseUrl: devnet().url, timeoutMs: 1_000 })
    const watcher = new ConfirmationWatcher(client, { firstPollMs: 5, pollIntervalMs: 20 })
    const tx = await transfer({})
    await client.broadcast(tx.serializeBytes())

    const outcome = await watcher.wait(tx.txid(), 100)
    const callsAtTimeout = client.calls
    await new Promise((resolve) => setTimeout(resolve, 80))

    assert.deepEqual(outcome, { state: 'pending' })
    assert.equal(watcher.waitingCount, 0)
    assert.isAtMost(client.calls, callsAtTimeout + 1)
  })

  test('a node that fails to answer does not lose the waiters', async ({ assert }) => {
    const client = new CountingClient({ baseUrl: devnet().url, timeoutMs: 1_000 })
    const watcher = new ConfirmationWatcher(client, { firstPollMs: 5, pollIntervalMs: 20 })
    const tx = await transfer({})
    await client.broadcast(tx.serializeBytes())
    await devnet().mine()
    devnet().faults.failNext(2, 503)

    const outcome = await watcher.wait(tx.txid(), 1_000)

    assert.equal(outcome.state, 'confirmed')
    assert.isAtLeast(client.calls, 3)
  })
})
