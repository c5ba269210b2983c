import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { SENDER, transfer } from '#tests/support/devnet'
import { decodeHeader, paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { AppConfig } from '#core/app_config'
import { headerPaymentRequired } from '#payments/x402'

const appConfig = await app.container.make(AppConfig)

test.group('Paying for a built-in feed', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  async function requirementsOf(feed: string, client: ApiClient) {
    const response = await client.get(`/feeds/${feed}`)
    return response.body()
  }

  async function signedPayment(amount = 5_000n, nonce = 0n) {
    const tx = await transfer({ recipient: stack.payTo, amount, nonce })
    return { tx, hex: tx.serialize() }
  }

  test('without a payment the feed answers 402 with the requirements in body and header', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/feeds/whale-alerts')

    response.assertStatus(402)
    assert.containsSubset(response.body(), {
      x402Version: 2,
      resource: {
        url: `${appConfig.publicUrl}/feeds/whale-alerts`,
        mimeType: 'application/json',
      },
      accepts: [
        {
          scheme: 'exact',
          network: 'stacks:2147483648',
          amount: '5000',
          asset: 'STX',
          payTo: stack.payTo,
          maxTimeoutSeconds: 300,
        },
      ],
    })
    // The header carries the body but the Bazaar extension (headerPaymentRequired).
    assert.deepEqual(
      decodeHeader(response.header('payment-required')),
      headerPaymentRequired(response.body())
    )
    assert.property(response.body().extensions, 'bazaar')
    assert.include(response.header('access-control-expose-headers') ?? '', 'payment-response')
  })

  test('unknown feeds are 404, invalid queries 422, both before any payment is asked', async ({
    client,
  }) => {
    const unknown = await client.get('/feeds/no-such-feed')
    const badQuery = await client.get('/feeds/token-intel').qs({ address: 'nope' })

    unknown.assertStatus(404)
    unknown.assertBodyContains({ error: { code: 'feed_not_found' } })
    badQuery.assertStatus(422)
    badQuery.assertBodyContains({ error: { code: 'validation_failed' } })
  })

  test('a paused feed answers 503 feed_unavailable before asking for payment', async ({
    client,
  }) => {
    const db = await app.container.make('lucid.db')
    await db.from('feeds').where('slug', 'governance').update({ status: 'paused' })

    const response = await client.get('/feeds/governance')

    response.assertStatus(503)
    response.assertBodyContains({ error: { code: 'feed_unavailable' } })
  })

  test('a valid payment buys the data once, records it and credits the platform', async ({
    client,
    assert,
  }) => {
    const required = await requirementsOf('whale-alerts', client)
    const { tx, hex } = await signedPayment()

    const response = await client
      .get('/feeds/whale-alerts')
      .header('payment-signature', paymentHeader(required, hex))
      .header('x-agent-name', 'test-agent')

    response.assertStatus(200)
    assert.containsSubset(response.body(), { price: 5000, price_stx: '0.005' })
    assert.isObject(response.body().data.summary)
    assert.match(response.body().data_source, /mempool\.space/)
    assert.isNumber(response.body().last_updated)
    assert.deepEqual(decodeHeader(response.header('payment-response')), {
      success: true,
      transaction: `0x${tx.txid()}`,
      network: 'stacks:2147483648',
      payer: SENDER.address,
    })
    assert.equal(response.header('cache-control'), 'no-store', 'kept by no cache on the way')
    assert.match(
      response.header('server-timing') ?? '',
      /^chain;dur=\d+;desc="[^"]+", app;dur=\d+$/
    )

    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), -5_000n)
    assert.equal(await ledger.balanceOf(accounts.platformWallet), 5_000n)
    const leaderboard = await client.get('/leaderboard')
    assert.deepEqual(leaderboard.body().agents[0], {
      rank: 1,
      agent_name: 'test-agent',
      address_short: 'ST1S…YPD5',
      total_queries: 1,
      total_spent_stx: 0.005,
    })
  })

  test('a redeemed transaction is refused, unless the same client replays it with its payment-identifier', async ({
    client,
    assert,
  }) => {
    const required = await requirementsOf('whale-alerts', client)
    const { hex } = await signedPayment()
    const header = paymentHeader(required, hex, 'client-secret-id-0001')
    const first = await client.get('/feeds/whale-alerts').header('payment-signature', header)

    const replay = await client.get('/feeds/whale-alerts').header('payment-signature', header)
    const stranger = await client
      .get('/feeds/whale-alerts')
      .header('payment-signature', paymentHeader(required, hex))
    const otherFeed = await client
      .get('/feeds/governance')
      .header('payment-signature', paymentHeader(await requirementsOf('governance', client), hex))

    first.assertStatus(200)
    replay.assertStatus(200)
    assert.equal(replay.text(), first.text(), 'the replay is byte-identical')
    assert.match(replay.header('content-type') ?? '', /^application\/json/)
    stranger.assertStatus(402)
    stranger.assertBodyContains({ error: 'payment_already_used' })
    otherFeed.assertStatus(402)
    otherFeed.assertBodyContains({ error: 'payment_already_used' })
    const sameIdOtherFeed = await client
      .get('/feeds/governance')
      .header(
        'payment-signature',
        paymentHeader(await requirementsOf('governance', client), hex, 'client-secret-id-0001')
      )
    sameIdOtherFeed.assertStatus(402)
    assert.equal(sameIdOtherFeed.body().error, 'payment_already_used')
  })

  test('bad payments are 402 with a stable code and charge nothing', async ({ client, assert }) => {
    const required = await requirementsOf('whale-alerts', client)
    const underpaid = await signedPayment(4_999n)
    const elsewhere = await transfer({
      recipient: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
      amount: 5_000n,
    })
    const balanceBefore = stack.devnet.balanceOf(stack.payTo)

    const cases: [string, string][] = [
      ['%%%', 'invalid_payload'],
      [paymentHeader(required, underpaid.hex), 'insufficient_amount'],
      [paymentHeader(required, elsewhere.serialize()), 'invalid_recipient'],
      [paymentHeader(required, `${underpaid.hex}00`), 'invalid_payload'],
    ]
    for (const [header, code] of cases) {
      const response = await client.get('/feeds/whale-alerts').header('payment-signature', header)
      response.assertStatus(402)
      response.assertBodyContains({ x402Version: 2, error: code })
    }
    assert.equal(stack.devnet.balanceOf(stack.payTo), balanceBefore)
    assert.equal(stack.devnet.nonceOf(SENDER.address), 0n)
  })

  test('when the source fails nothing is broadcast or charged, and the same payment works later', async ({
    client,
    assert,
  }) => {
    const required = await requirementsOf('gas-prediction', client)
    const { tx, hex } = await signedPayment(3_000n)
    stack.simulator.failNext('mempool', 'status_503', 10)

    const failed = await client
      .get('/feeds/gas-prediction')
      .header('payment-signature', paymentHeader(required, hex))

    failed.assertStatus(503)
    failed.assertBodyContains({ error: { code: 'source_unavailable' } })
    assert.deepEqual(decodeHeader(failed.header('payment-response')), {
      success: false,
      transaction: `0x${tx.txid()}`,
      network: 'stacks:2147483648',
      payer: SENDER.address,
      errorReason: 'source_unavailable',
    })
    const onChain = await fetch(`${stack.devnet.url}/extended/v1/tx/0x${tx.txid()}`)
    assert.equal(onChain.status, 404)

    stack.simulator.clearFaults()
    const retried = await client
      .get('/feeds/gas-prediction')
      .header('payment-signature', paymentHeader(required, hex))
    retried.assertStatus(200)
  })

  test('fifty concurrent copies of one payment serve and charge once', async ({
    client,
    assert,
  }) => {
    const required = await requirementsOf('btc-sentiment', client)
    const { hex } = await signedPayment(3_000n)
    const header = paymentHeader(required, hex)

    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        client.get('/feeds/btc-sentiment').header('payment-signature', header)
      )
    )

    const statuses = responses.map((response) => response.status())
    assert.lengthOf(
      statuses.filter((status) => status === 200),
      1
    )
    assert.isTrue(
      statuses.every((status) => [200, 202, 402].includes(status)),
      statuses.join(',')
    )
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), -3_000n)
  })
})
