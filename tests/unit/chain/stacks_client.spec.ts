import diagnostics from 'node:diagnostics_channel'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import { StacksClient } from '#chain/stacks_client'
import { E_CHAIN_NODE_BAD_ANSWER, E_CHAIN_NODE_UNAVAILABLE } from '#chain/exceptions'
import { DEFAULT_ACCOUNT_BALANCE } from '@tollbooth/devnet'
import { stacksClientOptions } from '#tests/support/chain'
import { ManualClock } from '#tests/support/clock'
import { SENDER, transfer, useDevnet } from '#tests/support/devnet'

test.group('Stacks client against the devnet', (group) => {
  const devnet = useDevnet(group, { hangMs: 60_000 })
  let clock: ManualClock
  group.each.setup(() => {
    clock = new ManualClock()
  })
  const client = () =>
    new StacksClient(stacksClientOptions(devnet().url, { clock, timeoutMs: 30_000 }))

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
    const hung = client().broadcast(bytes)
    await devnet().faults.held()
    clock.advance(30_000)
    assert.deepEqual(await hung, { kind: 'unknown', detail: 'timed out' })
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

  test('reads nonces and the account state', async ({ assert }) => {
    const tx = await transfer({ amount: 1_000n, fee: 500n })
    await client().broadcast(tx.serializeBytes())
    await devnet().mine()

    const nonces = await client().getNonces(SENDER.address)
    const account = await client().getAccount(SENDER.address)

    assert.equal(nonces.possibleNextNonce, 1n)
    assert.equal(nonces.lastExecutedNonce, 0n)
    assert.deepEqual(account, { balance: DEFAULT_ACCOUNT_BALANCE - 1_500n, nonce: 1n })
    assert.deepInclude(await client().getInfo(), { networkId: 2147483648 })
  })

  test('a node that does not answer raises chain_node_unavailable', async ({ assert }) => {
    devnet().faults.failNext(1, 502)
    await assert.rejects(() => client().getInfo(), E_CHAIN_NODE_UNAVAILABLE)
    devnet().faults.timeoutNext(1)
    const hung = client().getNonces(SENDER.address)
    await devnet().faults.held()
    clock.advance(30_000)
    await assert.rejects(() => hung, E_CHAIN_NODE_UNAVAILABLE)
  })
})

test.group('Stacks client against a node answering nonsense', (group) => {
  let baseUrl = ''
  let answer: (request: IncomingMessage, response: ServerResponse) => void
  group.setup(async () => {
    const server = createServer((request, response) => answer(request, response))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return () => new Promise<void>((resolve) => server.close(() => resolve()))
  })
  group.each.setup(() => {
    answer = (_, response) => {
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ network_id: 'not a number', balance: -1 }))
    }
  })

  test('an answer of the wrong shape raises chain_node_bad_answer', async ({ assert }) => {
    const client = new StacksClient(stacksClientOptions(baseUrl))

    await assert.rejects(() => client.getInfo(), E_CHAIN_NODE_BAD_ANSWER)
    await assert.rejects(() => client.getAccount(SENDER.address), E_CHAIN_NODE_BAD_ANSWER)
    await assert.rejects(() => client.getTransaction('ab'.repeat(32)), E_CHAIN_NODE_BAD_ANSWER)
  })

  test('a found transaction of the wrong shape in tx/multiple raises chain_node_bad_answer', async ({
    assert,
  }) => {
    const txid = `0x${'ab'.repeat(32)}`
    answer = (_, response) => {
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ [txid]: { found: true, result: { tx_id: txid } } }))
    }
    const client = new StacksClient(stacksClientOptions(baseUrl))

    await assert.rejects(() => client.getTransactions([txid]), E_CHAIN_NODE_BAD_ANSWER)
  })

  test('an answer above the size cap raises chain_node_bad_answer, declared or streamed', async ({
    assert,
  }) => {
    const info = JSON.stringify({ network_id: 1, stacks_tip_height: 5, padding: 'x'.repeat(2_000) })
    let declaresLength = true
    answer = (_, response) => {
      response.setHeader('content-type', 'application/json')
      if (declaresLength) return response.end(info)
      // Chunked, no content-length: the cap is found by counting.
      for (let at = 0; at < info.length; at += 100) {
        response.write(info.slice(at, at + 100))
      }
      response.end()
    }
    const client = new StacksClient(stacksClientOptions(baseUrl, { maxBytes: 1_000 }))

    await assert.rejects(() => client.getInfo(), E_CHAIN_NODE_BAD_ANSWER)
    declaresLength = false
    await assert.rejects(() => client.getInfo(), E_CHAIN_NODE_BAD_ANSWER)
    assert.deepEqual(
      await new StacksClient(stacksClientOptions(baseUrl, { maxBytes: 4_000 })).getInfo(),
      { networkId: 1, tipHeight: 5 },
      'the same answer within the cap is read'
    )
  })

  test('a 400 broadcast answer is a rejection only when read in full', async ({ assert }) => {
    const refusal = 'Failed to deserialize transaction: not enough bytes'
    let send: (response: ServerResponse) => void = () => {}
    answer = (request, response) => {
      request.resume()
      request.on('end', () => send(response))
    }
    const withText = (response: ServerResponse, text: string, length = text.length) => {
      response.writeHead(400, { 'content-type': 'text/plain', 'content-length': length })
      response.write(text)
    }
    const broadcast = (options = {}) =>
      new StacksClient(stacksClientOptions(baseUrl, options)).broadcast(new Uint8Array([1, 2]))

    send = (response) => {
      withText(response, refusal)
      response.end()
    }
    assert.deepInclude(await broadcast(), { kind: 'rejected', reason: 'Deserialization' })

    // Cut off mid-body: the node may have taken the bytes.
    send = (response) => {
      withText(response, refusal, refusal.length + 100)
      response.socket?.end()
    }
    assert.deepInclude(await broadcast(), { kind: 'unknown' })

    // Above the cap, declared or streamed.
    send = (response) => {
      withText(response, 'x'.repeat(2_000))
      response.end()
    }
    assert.deepInclude(await broadcast({ maxBytes: 1_000 }), { kind: 'unknown' })
    send = (response) => {
      response.writeHead(400, { 'content-type': 'text/plain' })
      for (let at = 0; at < 2_000; at += 100) response.write('x'.repeat(100))
      response.end()
    }
    assert.deepInclude(await broadcast({ maxBytes: 1_000 }), { kind: 'unknown' })

    // Stalled mid-body until the time-out: the clock moves once the client
    // has the 400's headers (undici's diagnostics channel, then a turn of the
    // event loop for its fetch to resolve), so a status-only verdict would show.
    const clock = new ManualClock()
    let headersReceived!: () => void
    const received = new Promise<void>((resolve) => (headersReceived = resolve))
    const onHeaders = () => headersReceived()
    diagnostics.subscribe('undici:request:headers', onHeaders)
    send = (response) => withText(response, refusal, refusal.length + 100)
    try {
      const pending = broadcast({ clock, timeoutMs: 30_000 })
      await received
      await new Promise((resolve) => setImmediate(resolve))
      clock.advance(30_000)
      assert.deepInclude(await pending, { kind: 'unknown' })
    } finally {
      diagnostics.unsubscribe('undici:request:headers', onHeaders)
    }
  })

  test('a node that never answers raises chain_node_unavailable once the clock passes the time-out', async ({
    assert,
  }) => {
    let arrived!: () => void
    const asked = new Promise<void>((resolve) => (arrived = resolve))
    answer = () => arrived()
    const clock = new ManualClock()
    const client = new StacksClient(stacksClientOptions(baseUrl, { clock, timeoutMs: 30_000 }))

    const pending = client.getInfo()
    await asked
    clock.advance(30_000)

    await assert.rejects(() => pending, E_CHAIN_NODE_UNAVAILABLE)
    assert.equal(clock.pendingTimers, 0)
  })
})
