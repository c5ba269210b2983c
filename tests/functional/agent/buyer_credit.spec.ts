import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createClient, OverCapError, type ClientOptions } from '#agent'
import env from '#start/env'
import { SENDER } from '#tests/support/devnet'
import { registerFeedsWithUploadedRates } from '#tests/support/hosted_mirror'
import { senderNextNonce, usePaidCallStack } from '#tests/support/paid_calls'

const BASE_URL = `http://${env.get('HOST')}:${env.get('PORT')}`

/**
 * The SDK (packages/agent) preferring prepaid credit (docs/credit.md), against
 * the app over real HTTP, paying from the devnet's funded sender.
 */
test.group('The buyer SDK paying from prepaid credit', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  function client(overrides: Partial<ClientOptions> = {}) {
    return createClient({
      baseUrl: BASE_URL,
      network: 'devnet',
      stacksApiUrl: stack.devnet.url,
      privateKey: SENDER.privateKey,
      maxPerCallMicrostx: 10_000n,
      budgetMicrostx: 300_000n,
      credit: { topUpMicrostx: 200_000n },
      // The service names itself by its PUBLIC_URL (localhost in tests), not 127.0.0.1.
      creditHosts: [`localhost:${env.get('PORT')}`],
      ...overrides,
    })
  }

  /** Transfers of the sender the chain took (mined or in its mempool). */
  const broadcastCount = () => senderNextNonce(stack)

  test('tops up once, then buys a built-in and a provider feed several times with one chain transaction, within its budget', async ({
    client: http,
    assert,
  }) => {
    await registerFeedsWithUploadedRates(http)
    const buyer = client()

    const bought = []
    for (let call = 0; call < 3; call++) bought.push(await buyer.get('whale-alerts'))
    bought.push(await buyer.get('mirror-co/rates'))

    assert.deepEqual(
      bought.map(({ paidWith, txid, priceMicrostx }) => [paidWith, txid, priceMicrostx]),
      Array.from({ length: 4 }, () => ['credit', null, 5_000n])
    )
    assert.isObject((bought[0].data as { summary: unknown }).summary)
    assert.deepEqual(bought[3].data, { rate: 1.25 })
    assert.equal(await broadcastCount(), 1)
    const payments = await db.from('payments').where('payer', SENDER.address)
    assert.deepEqual(
      payments.map((payment) => [payment.purpose, payment.status, Number(payment.amount_microstx)]),
      [['credit_top_up', 'confirmed', 200_000]]
    )
    const calls = await db.from('credit_calls').where('payer', SENDER.address)
    assert.lengthOf(calls, 4)
    assert.deepEqual(buyer.spent(), {
      spentMicrostx: 200_000n,
      reservedMicrostx: 0n,
      remainingMicrostx: 100_000n,
      calls: 0,
      unknown: [],
      credit: {
        topUps: 1,
        topUpsMicrostx: 200_000n,
        unspentTopUpsMicrostx: 180_000n,
        calls: 4,
        spentMicrostx: 20_000n,
        unknownCalls: [],
        balanceMicrostx: 180_000n,
      },
    })
  }).timeout(30_000)

  test("credit the wallet already holds (another client's top-up) counts against the budget: a client with a small one stops at it", async ({
    assert,
  }) => {
    await client().get('whale-alerts')
    const small = client({ budgetMicrostx: 12_000n })

    const first = await small.get('whale-alerts')
    const second = await small.get('whale-alerts')
    const third = await small.get('whale-alerts').catch((error: unknown) => error)

    assert.deepEqual([first.paidWith, second.paidWith], ['credit', 'credit'])
    assert.instanceOf(third, OverCapError)
    assert.equal((third as OverCapError).cap, 'budget')
    assert.equal(await broadcastCount(), 1)
    assert.lengthOf(await db.from('credit_calls').where('payer', SENDER.address), 3)
    const tokens = await db
      .from('credit_tokens')
      .where('address', SENDER.address)
      .orderBy('spend_cap_microstx', 'desc')
      .select('spend_cap_microstx', 'max_price_microstx')
    // The first client's token, then the small client's: each signed for no more than it had left.
    assert.deepEqual(
      tokens.map((token) => [Number(token.spend_cap_microstx), Number(token.max_price_microstx)]),
      [
        [200_000, 10_000],
        [12_000, 10_000],
        [7_000, 7_000],
      ]
    )
    assert.containsSubset(small.spent(), {
      spentMicrostx: 10_000n,
      remainingMicrostx: 2_000n,
      calls: 0,
    })
  }).timeout(30_000)

  test('with less left of the budget than the smallest top-up, the call is paid on chain', async ({
    assert,
  }) => {
    // The service's smallest top-up is 0.1 STX (config/credit.ts).
    const buyer = client({ budgetMicrostx: 50_000n })

    const bought = await buyer.get('whale-alerts')

    assert.equal(bought.paidWith, 'chain')
    const payments = await db.from('payments').where('payer', SENDER.address)
    assert.deepEqual(
      payments.map((payment) => [`0x${payment.txid}`, payment.purpose]),
      [[bought.txid, 'feed']]
    )
    assert.containsSubset(buyer.spent(), { spentMicrostx: 5_000n, calls: 1 })
  }).timeout(30_000)
})
