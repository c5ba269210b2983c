import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { PlatformNonces } from '#withdrawals/platform_nonces'
import { inGlobalTransaction } from '#tests/support/database'

const SENDER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5'

test.group('Platform nonces', (group) => {
  let nonces: PlatformNonces
  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    nonces = await app.container.make(PlatformNonces)
    await nonces.seed(SENDER, async () => 7n)
  })

  const take = () => db.transaction((trx) => nonces.take(trx, SENDER))
  const release = (nonce: bigint) => db.transaction((trx) => nonces.release(trx, SENDER, nonce))
  const state = async () => {
    const row = await db.from('platform_nonces').where('address', SENDER).firstOrFail()
    return { next: BigInt(row.next_nonce), released: row.released.map(BigInt) }
  }

  test('starts at the node’s next nonce, once, and hands out each nonce once', async ({
    assert,
  }) => {
    await nonces.seed(SENDER, async () => 99n)

    assert.deepEqual([await take(), await take(), await take()], [7n, 8n, 9n])
  })

  test('a released nonce is taken first; releasing the top one lowers the counter', async ({
    assert,
  }) => {
    for (let n = 0; n < 4; n++) await take() // 7, 8, 9, 10

    await release(8n)
    assert.deepEqual(await state(), { next: 11n, released: [8n] })
    await release(10n)
    assert.deepEqual(await state(), { next: 10n, released: [8n] })
    await release(9n)
    assert.deepEqual(await state(), { next: 8n, released: [] }, 'the top run folds back')
    assert.equal(await take(), 8n)
  })

  test('a re-sync keeps released nonces the chain has not executed and never goes back', async ({
    assert,
  }) => {
    for (let n = 0; n < 4; n++) await take() // 7 … 10
    await release(7n)
    await release(9n)

    await db.transaction((trx) =>
      nonces.resync(trx, SENDER, { possibleNextNonce: 13n, lastExecutedNonce: 7n })
    )
    assert.deepEqual(await state(), { next: 13n, released: [9n] })

    await db.transaction((trx) =>
      nonces.resync(trx, SENDER, { possibleNextNonce: 5n, lastExecutedNonce: null })
    )
    assert.deepEqual(await state(), { next: 13n, released: [9n] })
  })
})
