import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import {
  type ClaimRequest,
  MAX_CLAIMS_IN_FLIGHT_PER_PAYER,
  PaymentLifecycle,
} from '#payments/payment_lifecycle'
import Feed from '#models/feed'
import { useManualClock } from '#tests/support/clock'
import { inGlobalTransaction } from '#tests/support/database'

const PAYER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5'

function txid(n: number) {
  return n.toString(16).padStart(64, '0')
}

function claimRequest(
  feedId: string,
  n: number,
  overrides: Partial<ClaimRequest> & { payer?: string } = {}
): ClaimRequest {
  const { payer = PAYER, ...rest } = overrides
  return {
    purpose: 'feed',
    payment: {
      txid: txid(n),
      payer,
      amount: 5_000n,
      fee: 180n,
      nonce: BigInt(n),
      bytes: new Uint8Array([1, 2, 3]),
    },
    feedId,
    resource: 'GET /feeds/whale-alerts',
    network: 'stacks:2147483648',
    ...rest,
  }
}

test.group('Claiming a payment', (group) => {
  let lifecycle: PaymentLifecycle
  let request: (n: number, overrides?: Parameters<typeof claimRequest>[2]) => ClaimRequest

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    lifecycle = await app.container.make(PaymentLifecycle)
    const feed = await Feed.findByOrFail('slug', 'whale-alerts')
    request = (n, overrides = {}) => claimRequest(feed.id, n, overrides)
  })

  test('the first request claims a transaction, every later one sees it in flight', async ({
    assert,
  }) => {
    assert.deepEqual(await lifecycle.claim(request(1)), { outcome: 'claimed' })

    const again = await lifecycle.claim(request(1, { resource: 'GET /feeds/governance' }))

    assert.equal(again.outcome, 'in_flight')
    assert.equal(again.outcome === 'in_flight' && again.payment.resource, 'GET /feeds/whale-alerts')
  })

  test('a released claim (source failed, nothing broadcast) can be claimed again', async ({
    assert,
  }) => {
    await lifecycle.claim(request(3))
    await lifecycle.release(txid(3), 'source_unavailable')

    assert.deepEqual(await lifecycle.claim(request(3)), { outcome: 'claimed' })
  })

  test('a redeemed transaction is reported as such, for any resource', async ({ assert }) => {
    await lifecycle.claim(request(4, { paymentIdentifier: 'client-secret-id-0004' }))
    const db = await app.container.make('lucid.db')
    await db
      .from('payments')
      .where('txid', txid(4))
      .update({ status: 'confirmed', response: { data: 1 } })

    const replay = await lifecycle.claim(request(4, { resource: 'GET /feeds/governance' }))

    assert.equal(replay.outcome, 'redeemed')
    assert.equal(
      replay.outcome === 'redeemed' && replay.payment.payment_identifier,
      'client-secret-id-0004'
    )
  })

  test('a payer may hold at most five payments in flight', async ({ assert }) => {
    for (let n = 10; n < 10 + MAX_CLAIMS_IN_FLIGHT_PER_PAYER; n++) {
      assert.deepEqual(await lifecycle.claim(request(n)), { outcome: 'claimed' })
    }

    assert.deepEqual(await lifecycle.claim(request(99)), { outcome: 'too_many_in_flight' })
    assert.deepEqual(
      await lifecycle.claim(request(98, { payer: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG' })),
      {
        outcome: 'claimed',
      }
    )
  })
})

test.group('Payment state transitions', (group) => {
  let lifecycle: PaymentLifecycle
  let request: (n: number) => ClaimRequest

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    lifecycle = await app.container.make(PaymentLifecycle)
    const feed = await Feed.findByOrFail('slug', 'whale-alerts')
    request = (n) => claimRequest(feed.id, n)
  })

  async function statusOf(n: number) {
    const db = await app.container.make('lucid.db')
    const row = await db.from('payments').where('txid', txid(n)).select('status').first()
    return row?.status
  }

  /** A payment brought to `status` through the lifecycle itself. */
  async function paymentIn(n: number, status: 'claimed' | 'broadcast' | 'confirmed') {
    await lifecycle.claim(request(n))
    if (status === 'claimed') return
    await lifecycle.handOver(txid(n), { response: '{"data":1}', responseMs: 5 })
    if (status === 'broadcast') return
    await lifecycle.confirm(txid(n), 7)
  }

  test('a request releases only a claim it has not handed over', async ({ assert }) => {
    await paymentIn(1, 'claimed')
    await paymentIn(2, 'broadcast')

    await lifecycle.release(txid(1), 'source_unavailable')
    await lifecycle.release(txid(2), 'request_failed')

    assert.equal(await statusOf(1), 'released')
    assert.equal(
      await statusOf(2),
      'broadcast',
      'a row handed to the node is not the request’s to release'
    )
  })

  test('a transaction the node never took (rate-limited) is released once handed over, never once confirmed', async ({
    assert,
  }) => {
    await paymentIn(1, 'claimed')
    await paymentIn(2, 'broadcast')
    await paymentIn(3, 'confirmed')

    for (const n of [1, 2, 3]) await lifecycle.releaseUntaken(txid(n), 'rate_limited')

    assert.deepEqual(
      [await statusOf(1), await statusOf(2), await statusOf(3)],
      ['claimed', 'released', 'confirmed']
    )
  })

  test('only a handed-over payment is confirmed, and only once', async ({ assert }) => {
    await paymentIn(1, 'claimed')
    await paymentIn(2, 'broadcast')

    assert.equal(await lifecycle.confirm(txid(1), 7), 'not_broadcast')
    assert.equal(await lifecycle.confirm(txid(2), 7), 'confirmed')
    assert.equal(await lifecycle.confirm(txid(2), 7), 'already_confirmed')
    assert.equal(await statusOf(1), 'claimed')
    assert.isFalse(
      await lifecycle.handOver(txid(2), null),
      'a confirmed payment is not handed over again'
    )
  })

  test('a settling payment fails; a confirmed one never does', async ({ assert }) => {
    await paymentIn(1, 'claimed')
    await paymentIn(2, 'broadcast')
    await paymentIn(3, 'confirmed')

    for (const n of [1, 2, 3]) await lifecycle.fail(txid(n), 'bad_nonce')

    assert.deepEqual(
      [await statusOf(1), await statusOf(2), await statusOf(3)],
      ['failed', 'failed', 'confirmed']
    )
  })

  test('every time a payment records is the clock’s, so the reconcile job decides by it', async ({
    assert,
  }) => {
    const { clock, restore } = await useManualClock()
    try {
      lifecycle = await app.container.make(PaymentLifecycle)
      const claimedAt = clock.now()
      await paymentIn(5, 'claimed')
      clock.advance(1_000)
      await lifecycle.handOver(txid(5), null)
      clock.advance(1_000)
      await lifecycle.markDropped(txid(5))
      clock.advance(1_000)
      await lifecycle.confirm(txid(5), 7)

      const db = await app.container.make('lucid.db')
      const row = await db.from('payments').where('txid', txid(5)).first()
      const log = await db.from('query_log').where('txid', txid(5)).first()
      assert.equal(row.claimed_at.getTime(), claimedAt)
      assert.equal(row.broadcast_at.getTime(), claimedAt + 1_000)
      assert.equal(row.dropped_at.getTime(), claimedAt + 2_000)
      assert.equal(row.updated_at.getTime(), claimedAt + 3_000)
      assert.equal(log.created_at.getTime(), claimedAt + 3_000)
    } finally {
      restore()
    }
  })
})

/**
 * Real concurrency needs real connections: this group runs outside the
 * per-test global transaction (which would funnel every query through one
 * connection) and deletes its rows afterwards.
 */
test.group('Claiming a payment from many connections at once', (group) => {
  group.each.setup(() => async () => {
    const db = await app.container.make('lucid.db')
    await db.from('payments').where('txid', txid(2)).delete()
  })

  test('fifty concurrent claims of one transaction produce exactly one owner', async ({
    assert,
  }) => {
    const lifecycle = await app.container.make(PaymentLifecycle)
    const feed = await Feed.findByOrFail('slug', 'whale-alerts')
    const request = claimRequest(feed.id, 2)

    const outcomes = await Promise.all(Array.from({ length: 50 }, () => lifecycle.claim(request)))

    assert.lengthOf(
      outcomes.filter((outcome) => outcome.outcome === 'claimed'),
      1
    )
    assert.lengthOf(
      outcomes.filter((outcome) => outcome.outcome === 'in_flight'),
      49
    )
  })
})
