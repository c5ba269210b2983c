import { test } from '@japa/runner'
import { DEFAULT_ACCOUNT_BALANCE, startDevnet } from '../src/index.js'
import { FEE, RECIPIENT, SENDER, broadcast, transfer, useDevnet } from '../src/testing.js'
import {
  type HiroTx,
  broadcastStatus,
  getJson,
  httpStatus,
  manualTimer,
  postJson,
  settledFlag,
  txStatus,
  txStatusOf,
} from './helpers.js'

test.group('Devnet fault injection', (group) => {
  const hangTimer = manualTimer()
  const devnet = useDevnet(group, { hangMs: 150, hangTimer: hangTimer.schedule })

  test('the next two calls fail with 429 and the third is answered normally', async ({
    assert,
  }) => {
    devnet().faults.failNext(2, 429)

    const first = await fetch(`${devnet().url}/v2/info`)
    const second = await fetch(`${devnet().url}/extended/v1/address/${SENDER.address}/nonces`)
    const third = await fetch(`${devnet().url}/v2/info`)

    assert.equal(first.status, 429)
    assert.equal(first.headers.get('retry-after'), '1')
    assert.equal(second.status, 429)
    assert.equal(third.status, 200)
  })

  test('a fault with a path prefix only hits matching routes and never admin routes', async ({
    assert,
  }) => {
    const queued = await postJson(devnet(), '/devnet/faults', {
      kind: 'status',
      status: 503,
      count: 1,
      path_prefix: '/v2/transactions',
    })
    assert.equal(queued.status, 200)

    assert.equal(await httpStatus(devnet(), '/v2/info'), 200)
    const rejected = await broadcast(devnet(), await transfer({}))
    assert.equal(rejected.status, 503)
    assert.equal(devnet().nonceOf(SENDER.address), 0n)
    assert.equal(await broadcastStatus(devnet(), await transfer({})), 200)

    devnet().faults.failNext(1, 500)
    assert.equal(await httpStatus(devnet(), '/devnet/accounts'), 200)
    assert.equal(await httpStatus(devnet(), '/v2/info'), 500)
  })

  test('clearing faults over HTTP lets the next call through', async ({ assert }) => {
    devnet().faults.failNext(3, 502)
    const cleared = await fetch(`${devnet().url}/devnet/faults`, { method: 'DELETE' })
    assert.equal(cleared.status, 200)
    assert.equal(await httpStatus(devnet(), '/v2/info'), 200)
  })

  test('a timeout fault leaves the client waiting until it gives up', async ({ assert }) => {
    devnet().faults.timeoutNext(1)
    const client = new AbortController()

    const hung = fetch(`${devnet().url}/v2/info`, { signal: client.signal })
    await devnet().faults.held()
    assert.equal(await httpStatus(devnet(), '/v2/info'), 200)
    client.abort()

    await assert.rejects(() => hung, /aborted/)
  })

  test('a hung request is dropped by the devnet after hangMs', async ({ assert }) => {
    await postJson(devnet(), '/devnet/faults', { kind: 'timeout', count: 1 })

    const hung = fetch(`${devnet().url}/v2/info`)
    const settled = settledFlag(hung)
    await devnet().faults.held()
    assert.deepEqual(hangTimer.pending(), [150])
    assert.equal(await httpStatus(devnet(), '/v2/info'), 200)
    assert.isFalse(settled())

    hangTimer.fire()
    await assert.rejects(() => hung)
  })

  test('an aborted transaction is mined as abort_by_response, charging the fee only', async ({
    assert,
  }) => {
    const tx = await transfer({ amount: 5_000n })
    assert.equal(await broadcastStatus(devnet(), tx), 200)
    devnet().faults.abort(`0x${tx.txid()}`)

    await devnet().mine()

    const mined = await txStatus(devnet(), tx.txid())
    assert.containsSubset(mined.body, {
      tx_status: 'abort_by_response',
      block_height: 1,
      tx_result: { hex: '0x080100000000000000000000000000000001', repr: '(err u1)' },
    })
    assert.equal(devnet().balanceOf(SENDER.address), DEFAULT_ACCOUNT_BALANCE - FEE)
    assert.equal(devnet().balanceOf(RECIPIENT), DEFAULT_ACCOUNT_BALANCE)
    assert.equal(devnet().nonceOf(SENDER.address), 1n)
  })

  test('an abort fault can be queued over HTTP', async ({ assert }) => {
    const tx = await transfer({ amount: 5_000n })
    await broadcast(devnet(), tx)
    const queued = await postJson(devnet(), '/devnet/faults', { kind: 'abort', txid: tx.txid() })
    assert.equal(queued.status, 200)

    await devnet().mine()
    assert.equal(await txStatusOf(devnet(), tx.txid()), 'abort_by_response')
  })

  test('a lost answer: the broadcast is admitted, yet its caller gets a 502', async ({
    assert,
  }) => {
    devnet().faults.loseAnswerNext(1, '/v2/transactions', { status: 502 })
    const tx = await transfer({ amount: 5_000n })

    const lost = await broadcast(devnet(), tx)
    assert.equal(lost.status, 502)
    assert.equal(await txStatusOf(devnet(), tx.txid()), 'pending')

    await devnet().mine()
    assert.equal(await txStatusOf(devnet(), tx.txid()), 'success')
  })

  test('a lost answer without a status holds the connection until hangMs, the transaction admitted', async ({
    assert,
  }) => {
    await postJson(devnet(), '/devnet/faults', {
      kind: 'lost_answer',
      path_prefix: '/v2/transactions',
    })
    const tx = await transfer({ amount: 5_000n })

    const hung = broadcast(devnet(), tx)
    await devnet().faults.held()
    assert.equal(await txStatusOf(devnet(), tx.txid()), 'pending')
    hangTimer.fire()

    await assert.rejects(() => hung)
  })

  test('abort_next aborts the next admitted transaction of a sender, whatever its txid', async ({
    assert,
  }) => {
    const other = devnet().accounts[3]
    devnet().faults.transactionFaultNext('abort', 1, SENDER.address)
    const bystander = await transfer({ amount: 5_000n, senderKey: other.privateKey })
    const target = await transfer({ amount: 5_000n })
    await broadcast(devnet(), bystander)
    await broadcast(devnet(), target)
    const next = await transfer({ amount: 5_000n, nonce: 1n })
    await broadcast(devnet(), next)

    await devnet().mine()

    assert.equal(await txStatusOf(devnet(), bystander.txid()), 'success')
    assert.equal(await txStatusOf(devnet(), target.txid()), 'abort_by_response')
    assert.equal(await txStatusOf(devnet(), next.txid()), 'success')
  })

  test('report_dropped: look-ups say dropped while it waits, and it is mined anyway', async ({
    assert,
  }) => {
    const queued = await postJson(devnet(), '/devnet/faults', { kind: 'report_dropped' })
    assert.equal(queued.status, 200)
    const tx = await transfer({ amount: 5_000n })
    assert.equal(await broadcastStatus(devnet(), tx), 200)

    assert.equal(await txStatusOf(devnet(), tx.txid()), 'dropped_stale_garbage_collect')
    const many = await getJson<Record<string, { result: HiroTx }>>(
      devnet(),
      `/extended/v1/tx/multiple?tx_id=0x${tx.txid()}`
    )
    assert.equal(many.body[`0x${tx.txid()}`].result.tx_status, 'dropped_stale_garbage_collect')
    assert.equal(await broadcastStatus(devnet(), tx), 200, 'the same bytes again: a duplicate')

    await devnet().mine()
    assert.equal(await txStatusOf(devnet(), tx.txid()), 'success')
  })

  test('report_unknown: look-ups say not found while it waits, and it is mined anyway', async ({
    assert,
  }) => {
    const queued = await postJson(devnet(), '/devnet/faults', { kind: 'report_unknown' })
    assert.equal(queued.status, 200)
    const tx = await transfer({ amount: 5_000n })
    assert.equal(await broadcastStatus(devnet(), tx), 200)

    const single = await getJson(devnet(), `/extended/v1/tx/0x${tx.txid()}`)
    const many = await getJson<Record<string, { found: boolean }>>(
      devnet(),
      `/extended/v1/tx/multiple?tx_id=0x${tx.txid()}`
    )
    assert.equal(single.status, 404)
    assert.isFalse(many.body[`0x${tx.txid()}`].found)

    await devnet().mine()
    assert.equal(await txStatusOf(devnet(), tx.txid()), 'success')
  })

  test('malformed fault requests are refused with 400', async ({ assert }) => {
    const badStatus = await postJson(devnet(), '/devnet/faults', { kind: 'status', status: 418 })
    const badKind = await postJson(devnet(), '/devnet/faults', { kind: 'explode' })
    const badCount = await postJson(devnet(), '/devnet/faults', { kind: 'timeout', count: 0 })
    const badJson = await postJson(devnet(), '/devnet/faults', '{nope')
    const badLost = await postJson(devnet(), '/devnet/faults', { kind: 'lost_answer', status: 200 })
    const badSender = await postJson(devnet(), '/devnet/faults', {
      kind: 'abort_next',
      sender: 'SP000000000000000000002Q6VF78',
    })

    for (const response of [badStatus, badKind, badCount, badJson, badLost, badSender]) {
      assert.equal(response.status, 400)
    }
    assert.equal(await httpStatus(devnet(), '/v2/info'), 200)
  })
})

test.group('Devnet shutdown', () => {
  test('stopping the devnet drops requests held by a timeout fault', async ({ assert }) => {
    const hangTimer = manualTimer()
    const devnet = await startDevnet({ port: 0, blockTimeMs: null, hangTimer: hangTimer.schedule })
    devnet.faults.timeoutNext(1)

    const hung = fetch(`${devnet.url}/v2/info`)
    await devnet.faults.held()
    await devnet.stop()

    await assert.rejects(() => hung)
    assert.deepEqual(hangTimer.pending(), [])
  })
})
