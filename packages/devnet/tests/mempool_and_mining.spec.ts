import { mock } from 'node:test'
import { test } from '@japa/runner'
import { DEFAULT_ACCOUNT_BALANCE, DEFAULT_BLOCK_TIME_MS, startDevnet } from '../src/index.js'
import { FEE, RECIPIENT, SENDER, broadcast, transfer, useDevnet } from '../src/testing.js'
import { broadcastStatus, txStatus, txStatusOf } from './helpers.js'

const CLOCK_MS = Date.UTC(2025, 0, 2, 3, 4, 5)

test.group('Devnet mempool and mining', (group) => {
  const devnet = useDevnet(group, { now: () => CLOCK_MS })

  test('a valid transfer is pending until mined, then succeeds and moves the STX', async ({
    assert,
  }) => {
    const tx = await transfer({ amount: 2_500_000n, memo: 'order-42' })
    const response = await broadcast<string>(devnet(), tx)

    assert.equal(response.status, 200)
    assert.equal(response.body, tx.txid())

    const pending = await txStatus(devnet(), tx.txid())
    assert.equal(pending.status, 200)
    assert.containsSubset(pending.body, {
      tx_id: `0x${tx.txid()}`,
      tx_status: 'pending',
      tx_type: 'token_transfer',
      nonce: 0,
      fee_rate: '1000',
      sender_address: SENDER.address,
      receipt_time: Math.floor(CLOCK_MS / 1000),
      token_transfer: { recipient_address: RECIPIENT, amount: '2500000' },
    })
    assert.notProperty(pending.body, 'block_height')
    assert.equal(devnet().balanceOf(RECIPIENT), DEFAULT_ACCOUNT_BALANCE)

    const block = await devnet().mine()
    assert.deepEqual(block.txids, [tx.txid()])
    assert.equal(block.blockHeight, 1)

    const mined = await txStatus(devnet(), tx.txid())
    assert.containsSubset(mined.body, {
      tx_status: 'success',
      block_height: 1,
      burn_block_time: Math.floor(CLOCK_MS / 1000),
      canonical: true,
      tx_result: { hex: '0x0703', repr: '(ok true)' },
    })
    assert.match(String(mined.body.block_hash), /^0x[0-9a-f]{64}$/)
    const memo = (mined.body.token_transfer as { memo: string }).memo
    assert.equal(memo, `0x${Buffer.from('order-42').toString('hex').padEnd(68, '0')}`)

    assert.equal(devnet().balanceOf(RECIPIENT), DEFAULT_ACCOUNT_BALANCE + 2_500_000n)
    assert.equal(devnet().balanceOf(SENDER.address), DEFAULT_ACCOUNT_BALANCE - 2_500_000n - FEE)
    assert.equal(devnet().nonceOf(SENDER.address), 1n)
  })

  test('a higher fee for a pending nonce replaces the old transaction, which is never mined', async ({
    assert,
  }) => {
    const original = await transfer({ amount: 1_000n, fee: 1_000n })
    const replacement = await transfer({ amount: 2_000n, fee: 1_001n })

    assert.equal(await broadcastStatus(devnet(), original), 200)
    const response = await broadcast<string>(devnet(), replacement)
    assert.equal(response.status, 200)
    assert.equal(response.body, replacement.txid())

    const dropped = await txStatus(devnet(), original.txid())
    assert.equal(dropped.body.tx_status, 'dropped_replace_by_fee')
    assert.equal(dropped.body.replaced_by_tx_id, `0x${replacement.txid()}`)

    const block = await devnet().mine()
    assert.deepEqual(block.txids, [replacement.txid()])
    assert.equal(await txStatusOf(devnet(), original.txid()), 'dropped_replace_by_fee')
    assert.equal(await txStatusOf(devnet(), replacement.txid()), 'success')
    assert.equal(devnet().balanceOf(RECIPIENT), DEFAULT_ACCOUNT_BALANCE + 2_000n)
    assert.equal(devnet().balanceOf(SENDER.address), DEFAULT_ACCOUNT_BALANCE - 2_000n - 1_001n)
  })

  test('broadcasting the same transaction twice returns the same txid and keeps one copy', async ({
    assert,
  }) => {
    const tx = await transfer({})
    const first = await broadcast<string>(devnet(), tx)
    const second = await broadcast<string>(devnet(), tx, 'octet-stream')
    assert.equal(first.status, 200)
    assert.equal(second.status, 200)
    assert.equal(second.body, first.body)

    const block = await devnet().mine()
    assert.deepEqual(block.txids, [tx.txid()])

    const afterMining = await broadcast<string>(devnet(), tx)
    assert.equal(afterMining.status, 200)
    assert.equal(afterMining.body, tx.txid())
    const emptyBlock = await devnet().mine()
    assert.deepEqual(emptyBlock.txids, [])
    assert.equal(devnet().nonceOf(SENDER.address), 1n)
  })

  test('chained nonces are mined together in order and a gap waits for the missing nonce', async ({
    assert,
  }) => {
    const second = await transfer({ nonce: 1n, amount: 2n })
    const first = await transfer({ nonce: 0n, amount: 1n })
    const afterGap = await transfer({ nonce: 3n, amount: 4n })
    for (const tx of [second, first, afterGap]) {
      assert.equal(await broadcastStatus(devnet(), tx), 200)
    }

    const block = await devnet().mine()
    assert.deepEqual(block.txids, [first.txid(), second.txid()])
    assert.equal(await txStatusOf(devnet(), afterGap.txid()), 'pending')

    const filler = await transfer({ nonce: 2n, amount: 3n })
    assert.equal(await broadcastStatus(devnet(), filler), 200)
    const next = await devnet().mine()
    assert.deepEqual(next.txids, [filler.txid(), afterGap.txid()])
    assert.equal(next.blockHeight, 2)
    assert.equal(devnet().nonceOf(SENDER.address), 4n)
  })

  test('mining over HTTP mines one block and lists its txids', async ({ assert }) => {
    const tx = await transfer({})
    await broadcast(devnet(), tx)

    const response = await fetch(`${devnet().url}/devnet/mine`, { method: 'POST' })
    assert.equal(response.status, 200)
    const body = (await response.json()) as { block_height: number; txids: string[] }
    assert.equal(body.block_height, 1)
    assert.deepEqual(body.txids, [tx.txid()])
  })

  test('switched to instant blocks, a manual devnet mines each accepted transaction by itself', async ({
    assert,
  }) => {
    const first = await transfer({ nonce: 0n })
    await broadcast(devnet(), first)
    assert.equal(await txStatusOf(devnet(), first.txid()), 'pending')

    devnet().setBlockTime(0)
    const second = await transfer({ nonce: 1n })
    await broadcast(devnet(), second)
    await new Promise((resolve) => setImmediate(resolve))

    for (const tx of [first, second]) {
      assert.equal(await txStatusOf(devnet(), tx.txid()), 'success')
    }

    devnet().setBlockTime(null)
    const third = await transfer({ nonce: 2n })
    await broadcast(devnet(), third)
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(await txStatusOf(devnet(), third.txid()), 'pending')
  })
})

test.group('Devnet block time', () => {
  test('started with blockTimeMs null it mines only when asked; left out, every 2 s', async ({
    assert,
  }) => {
    mock.timers.enable({ apis: ['setInterval'] })
    const manual = await startDevnet({ port: 0, blockTimeMs: null })
    const timed = await startDevnet({ port: 0 })
    try {
      mock.timers.tick(3 * DEFAULT_BLOCK_TIME_MS)
      assert.equal(manual.blockHeight(), 0)
      assert.equal(timed.blockHeight(), 3)
    } finally {
      mock.timers.reset()
      await Promise.all([manual.stop(), timed.stop()])
    }
  })
})
