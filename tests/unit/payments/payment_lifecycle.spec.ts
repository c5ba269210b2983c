import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import {
  type ClaimRequest,
  MAX_CLAIMS_IN_FLIGHT_PER_PAYER,
  PaymentLifecycle,
} from '#payments/payment_lifecycle'
import Feed from '#models/feed'

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
  let claims: PaymentLifecycle
  let request: (n: number, overrides?: Parameters<typeof claimRequest>[2]) => ClaimRequest

  group.each.setup(() => testUtils.db().withGlobalTransaction())
  group.each.setup(async () => {
    claims = await app.container.make(PaymentLifecycle)
    const feed = await Feed.findByOrFail('slug', 'whale-alerts')
    request = (n, overrides = {}) => claimRequest(feed.id, n, overrides)
  })

  test('the first request claims a transaction, every later one sees it in flight', async ({
    assert,
  }) => {
    assert.deepEqual(await claims.claim(request(1)), { outcome: 'claimed' })

    const again = await claims.claim(request(1, { resource: 'GET /feeds/governance' }))

    assert.equal(again.outcome, 'in_flight')
    assert.equal(again.outcome === 'in_flight' && again.payment.resource, 'GET /feeds/whale-alerts')
  })

  test('a released claim (source failed, nothing broadcast) can be claimed again', async ({
    assert,
  }) => {
    await claims.claim(request(3))
    await claims.release(txid(3), 'source_unavailable')

    assert.deepEqual(await claims.claim(request(3)), { outcome: 'claimed' })
  })

  test('a redeemed transaction is reported as such, for any resource', async ({ assert }) => {
    await claims.claim(request(4, { paymentIdentifier: 'client-secret-id-0004' }))
    const db = await app.container.make('lucid.db')
    await db
      .from('payments')
      .where('txid', txid(4))
      .update({ status: 'confirmed', response: { data: 1 } })

    const replay = await claims.claim(request(4, { resource: 'GET /feeds/governance' }))

    assert.equal(replay.outcome, 'redeemed')
    assert.equal(
      replay.outcome === 'redeemed' && replay.payment.payment_identifier,
      'client-secret-id-0004'
    )
  })

  test('a payer may hold at most five payments in flight', async ({ assert }) => {
    for (let n = 10; n < 10 + MAX_CLAIMS_IN_FLIGHT_PER_PAYER; n++) {
      assert.deepEqual(await claims.claim(request(n)), { outcome: 'claimed' })
    }

    assert.deepEqual(await claims.claim(request(99)), { outcome: 'too_many_in_flight' })
    assert.deepEqual(
      await claims.claim(request(98, { payer: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG' })),
      {
        outcome: 'claimed',
      }
    )
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
    const claims = await app.container.make(PaymentLifecycle)
    const feed = await Feed.findByOrFail('slug', 'whale-alerts')
    const request = claimRequest(feed.id, 2)

    const outcomes = await Promise.all(Array.from({ length: 50 }, () => claims.claim(request)))

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
