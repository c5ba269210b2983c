import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import { StacksClient } from '#chain/stacks_client'
import { E_CHAIN_NODE_BAD_ANSWER, E_CHAIN_NODE_UNAVAILABLE } from '#chain/exceptions'
import { DEFAULT_ACCOUNT_BALANCE } from '@tollbooth/devnet'
import { RECIPIENT, SENDER, transfer, useDevnet } from '#tests/support/devnet'

test.group('Stacks client against the devnet', (group) => {
  const devnet = useDevnet(group, { hangMs: 2_000 })
  const client = () => new StacksClient({ baseUrl: devnet().url, timeoutMs: 1_000 })

  test('a broadcast transfer is pending, then confirmed once mined', async ({ assert }) => {
    const tx = await transfer({ amount: 2_500n })

    const outcome = await client().broadcast(tx.serializeBytes())

    assert.deepEqual(outcome, { kind: 'accepted', txid: tx.txid() })
    const pending = await client().getTransaction(`0x${tx.txid()}`)
    assert.deepInclude(pending, {
      status: 'pending',
      confirmed: false,
      failed: false,
      blockHeight: null,
    })

    await devnet().mine()

    const mined = await client().getTransaction(tx.txid())
    assert.equal(mined?.status, 'success')
    assert.isTrue(mined?.confirmed)
    assert.isAbove(mined!.blockHeight!, 0)
  })

  test('a node rejection becomes a definite outcome with a stable code', async ({ assert }) => {
    const first = await transfer({ nonce: 0n })
    await client().broadcast(first.serializeBytes())
    await devnet().mine()
    const stale = await transfer({ nonce: 0n, amount: 9n })

    const outcome = await client().broadcast(stale.serializeBytes())

    assert.containsSubset(outcome, {
      kind: 'rejected',
      code: 'bad_nonce',
      reason: 'BadNonce',
      txid: stale.txid(),
    })
  })

  test('429 is rate limited, 5xx and a hung node are unknown outcomes', async ({ assert }) => {
    const tx = await transfer({})
    const bytes = tx.serializeBytes()

    devnet().faults.failNext(1, 429)
    assert.containsSubset(await client().broadcast(bytes), { kind: 'rate_limited' })

    devnet().faults.failNext(1, 503)
    assert.deepEqual(await client().broadcast(bytes), {
      kind: 'unknown',
      detail: 'the node answered HTTP 503',
    })

    devnet().faults.timeoutNext(1)
    assert.deepEqual(await client().broadcast(bytes), { kind: 'unknown', detail: 'timed out' })
  })

  test('an aborted transaction is failed, never confirmed', async ({ assert }) => {
    const tx = await transfer({})
    await client().broadcast(tx.serializeBytes())
    devnet().faults.abort(tx.txid())
    await devnet().mine()

    const status = await client().getTransaction(tx.txid())

    assert.deepInclude(status, { status: 'abort_by_response', confirmed: false, failed: true })
  })

  test('looks many transactions up in one call and reports unknown ones as null', async ({
    assert,
  }) => {
    const first = await transfer({ nonce: 0n })
    const second = await transfer({ nonce: 1n })
    await client().broadcast(first.serializeBytes())
    await client().broadcast(second.serializeBytes())
    await devnet().mine()
    const unknown = 'ab'.repeat(32)

    const found = await client().getTransactions([first.txid(), `0x${second.txid()}`, unknown])

    assert.isTrue(found.get(first.txid())?.confirmed)
    assert.isTrue(found.get(second.txid())?.confirmed)
    assert.isNull(found.get(unknown))
    assert.isNull(await client().getTransaction(unknown))
  })

  test('reads nonces, balances and the account state', async ({ assert }) => {
    const tx = await transfer({ amount: 1_000n, fee: 500n })
    await client().broadcast(tx.serializeBytes())
    await devnet().mine()

    const nonces = await client().getNonces(SENDER.address)
    const account = await client().getAccount(SENDER.address)

    assert.equal(nonces.possibleNextNonce, 1n)
    assert.equal(nonces.lastExecutedNonce, 0n)
    assert.deepEqual(account, { balance: DEFAULT_ACCOUNT_BALANCE - 1_500n, nonce: 1n })
    assert.equal(await client().getBalance(RECIPIENT), DEFAULT_ACCOUNT_BALANCE + 1_000n)
    assert.deepInclude(await client().getInfo(), { networkId: 2147483648 })
  })

  test('a node that does not answer raises chain_node_unavailable', async ({ assert }) => {
    devnet().faults.failNext(1, 502)
    await assert.rejects(() => client().getInfo(), E_CHAIN_NODE_UNAVAILABLE)
    devnet().faults.timeoutNext(1)
    await assert.rejects(() => client().getNonces(SENDER.address), E_CHAIN_NODE_UNAVAILABLE)
  })
})

test.group('Stacks client against a node answering nonsense', (group) => {
  let baseUrl = ''
  group.setup(async () => {
    const server = createServer((_, response) => {
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ network_id: 'not a number', balance: -1 }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return () => new Promise<void>((resolve) => server.close(() => resolve()))
  })

  test('an answer of the wrong shape raises chain_node_bad_answer', async ({ assert }) => {
    const client = new StacksClient({ baseUrl, timeoutMs: 500 })

    await assert.rejects(() => client.getInfo(), E_CHAIN_NODE_BAD_ANSWER)
    await assert.rejects(() => client.getAccount(SENDER.address), E_CHAIN_NODE_BAD_ANSWER)
    await assert.rejects(() => client.getTransaction('ab'.repeat(32)), E_CHAIN_NODE_BAD_ANSWER)
  })
})
