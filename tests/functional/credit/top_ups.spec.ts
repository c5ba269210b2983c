import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import axios from 'axios'
import { decodePaymentResponse, privateKeyToAccount, wrapAxiosWithPayment } from 'x402-stacks'
import env from '#start/env'
import { AppConfig } from '#core/app_config'
import { Clock } from '#core/clock'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { PaymentsConfig } from '#payments/define_config'
import { ReconcilePayments } from '#payments/reconcile_payments'
import { PaymentSettlement } from '#payments/settlement/payment_settlement'
import { RemoteFacilitator } from '#payments/settlement/remote_facilitator'
import type { PaymentRequired } from '#payments/x402'
import { headerPaymentRequired } from '#payments/x402'
import { SENDER, transfer } from '#tests/support/devnet'
import {
  type PaidCallStack,
  decodeHeader,
  paymentHeader,
  usePaidCallStack,
} from '#tests/support/paid_calls'
import { forgetRateLimitCounts, setRateLimits } from '#tests/support/rate_limits'

const appConfig = await app.container.make(AppConfig)
const paymentsConfig = await app.container.make(PaymentsConfig)
const HIRO_TESTNET = 'https://api.testnet.hiro.so'

/** The wallet's credit as the ledger holds it (what the platform owes it). */
async function creditOf(address: string) {
  const ledger = await app.container.make(Ledger)
  return -(await ledger.balanceOf(accounts.buyerCredit(address)))
}

async function topUpPostings(txid: string) {
  const rows = await db
    .from('ledger_transactions')
    .where({ kind: 'credit_top_up', reference: txid })
  return rows.length
}

/** A buyer of credit and of feeds, paying from the devnet's funded sender at its next nonce. */
function useTopUpBuyer(stack: PaidCallStack) {
  async function nextNonce() {
    const nonces = await fetch(`${stack.devnet.url}/extended/v1/address/${SENDER.address}/nonces`)
    const answer = (await nonces.json()) as { possible_next_nonce: number }
    return BigInt(answer.possible_next_nonce)
  }
  async function signedTransfer(amount: bigint) {
    return transfer({ recipient: stack.payTo, amount, nonce: await nextNonce() })
  }
  async function quote(client: ApiClient, amountStx: string) {
    const response = await client.post('/credit/top-ups').qs({ amount_stx: amountStx })
    response.assertStatus(402)
    return response.body() as PaymentRequired
  }
  return {
    signedTransfer,
    quote,
    /** Pays `amountStx` of credit with `tx` (a fresh transfer of that amount by default). */
    async topUp(
      client: ApiClient,
      amountStx: string,
      options: { tx?: Awaited<ReturnType<typeof transfer>>; paymentIdentifier?: string } = {}
    ) {
      const required = await quote(client, amountStx)
      const tx = options.tx ?? (await signedTransfer(BigInt(required.accepts[0].amount)))
      const header = paymentHeader(required, tx.serialize(), options.paymentIdentifier)
      const response = await client
        .post('/credit/top-ups')
        .qs({ amount_stx: amountStx })
        .header('payment-signature', header)
      return { tx, header, response }
    },
    /** Pays whale-alerts (5 000 µSTX) with `tx`. */
    async payFeed(client: ApiClient, tx: Awaited<ReturnType<typeof transfer>>) {
      const feedQuote = await client.get('/feeds/whale-alerts')
      const required = feedQuote.body() as PaymentRequired
      return client
        .get('/feeds/whale-alerts')
        .header('payment-signature', paymentHeader(required, tx.serialize()))
    },
  }
}

test.group('Buying prepaid credit', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  const buyer = useTopUpBuyer(stack)

  test('without a payment a top-up answers 402 asking for its amount, writing nothing', async ({
    client,
    assert,
  }) => {
    const before = await db.from('payments').count('* as count').first()

    const response = await client.post('/credit/top-ups').qs({ amount_stx: '1.50' })

    response.assertStatus(402)
    assert.containsSubset(response.body(), {
      x402Version: 2,
      resource: { url: `${appConfig.publicUrl}/credit/top-ups?amount_stx=1.5` },
      accepts: [
        {
          scheme: 'exact',
          network: 'stacks:2147483648',
          amount: '1500000',
          asset: 'STX',
          payTo: stack.payTo,
        },
      ],
    })
    assert.deepEqual(
      decodeHeader(response.header('payment-required')),
      headerPaymentRequired(response.body())
    )
    const after = await db.from('payments').count('* as count').first()
    assert.equal(after.count, before.count)
  })

  test('a top-up outside the bounds or not an amount of STX is refused before any payment', async ({
    client,
  }) => {
    const cases = [
      ['0.099999', 'top_up_below_minimum'],
      ['100.000001', 'top_up_above_maximum'],
      ['1.1234567', 'invalid_top_up_amount'],
      ['-1', 'invalid_top_up_amount'],
      ['1e3', 'invalid_top_up_amount'],
    ] as const
    for (const [amount, code] of cases) {
      const response = await client.post('/credit/top-ups').qs({ amount_stx: amount })
      response.assertStatus(422)
      response.assertBodyContains({ error: { code, fields: [{ field: 'amount_stx' }] } })
    }
    const missing = await client.post('/credit/top-ups')
    missing.assertStatus(422)
    missing.assertBodyContains({ error: { code: 'validation_failed' } })
  })

  test('a paid top-up is credited to the paying wallet once it confirms: 200 with the balance', async ({
    client,
    assert,
  }) => {
    const first = await buyer.topUp(client, '1.5')
    const second = await buyer.topUp(client, '0.25')

    first.response.assertStatus(200)
    assert.deepEqual(first.response.body(), {
      credit: { address: SENDER.address, balance_microstx: 1_500_000, balance_stx: '1.5' },
      top_up: { txid: `0x${first.tx.txid()}`, amount_microstx: 1_500_000 },
    })
    second.response.assertStatus(200)
    assert.containsSubset(second.response.body(), {
      credit: { balance_microstx: 1_750_000, balance_stx: '1.75' },
    })
    assert.containsSubset(decodeHeader(first.response.header('payment-response')), {
      success: true,
      transaction: `0x${first.tx.txid()}`,
      payer: SENDER.address,
    })
    assert.equal(await creditOf(SENDER.address), 1_750_000n)
  })

  test('an unmodified x402-stacks client buys credit', async ({ assert }) => {
    // It asks its hard-wired Hiro testnet host for the nonce and fee: sent to the devnet instead.
    const realFetch = globalThis.fetch
    globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (!url.startsWith(HIRO_TESTNET)) return realFetch(input, init)
      const redirected = url.replace(HIRO_TESTNET, stack.devnet.url)
      return input instanceof Request
        ? realFetch(new Request(redirected, input), init)
        : realFetch(redirected, init)
    }
    try {
      const api = wrapAxiosWithPayment(
        axios.create({ baseURL: `http://${env.get('HOST')}:${env.get('PORT')}`, timeout: 10_000 }),
        privateKeyToAccount(SENDER.privateKey, 'testnet')
      )

      const response = await api.post('/credit/top-ups', undefined, {
        params: { amount_stx: '2' },
      })

      assert.equal(response.status, 200)
      assert.deepInclude(response.data.credit, {
        address: SENDER.address,
        balance_microstx: 2_000_000,
        balance_stx: '2',
      })
      assert.equal(response.data.top_up.amount_microstx, 2_000_000)
      const settlement = decodePaymentResponse(response.headers['payment-response'])
      assert.containsSubset(settlement, { success: true, payer: SENDER.address })
      assert.equal(await creditOf(SENDER.address), 2_000_000n)
    } finally {
      globalThis.fetch = realFetch
    }
  }).timeout(20_000)

  test('a retry with the same payment gets the same answer and credits nothing twice', async ({
    client,
    assert,
  }) => {
    const paid = await buyer.topUp(client, '1', { paymentIdentifier: 'top-up-retry-0001' })
    const retried = await client
      .post('/credit/top-ups')
      .qs({ amount_stx: '1' })
      .header('payment-signature', paid.header)
    const bare = await buyer.topUp(client, '1', { tx: paid.tx })

    paid.response.assertStatus(200)
    retried.assertStatus(200)
    assert.equal(retried.text(), paid.response.text())
    bare.response.assertStatus(402)
    assert.equal(bare.response.body().error, 'payment_already_used')
    assert.equal(await creditOf(SENDER.address), 1_000_000n)
    assert.equal(await topUpPostings(paid.tx.txid()), 1)
  })

  test('a transfer redeemed for a feed is refused as a top-up', async ({ client, assert }) => {
    const tx = await buyer.signedTransfer(100_000n)

    const feed = await buyer.payFeed(client, tx)
    const topUp = await buyer.topUp(client, '0.1', { tx })

    feed.assertStatus(200)
    topUp.response.assertStatus(402)
    assert.equal(topUp.response.body().error, 'payment_already_used')
    assert.equal(await creditOf(SENDER.address), 0n)
    assert.equal(await topUpPostings(tx.txid()), 0)
  })

  test('a transfer redeemed as a top-up is refused for a feed', async ({ client, assert }) => {
    const tx = await buyer.signedTransfer(100_000n)

    const topUp = await buyer.topUp(client, '0.1', { tx })
    const feed = await buyer.payFeed(client, tx)

    topUp.response.assertStatus(200)
    feed.assertStatus(402)
    assert.equal(feed.body().error, 'payment_already_used')
    assert.equal(await creditOf(SENDER.address), 100_000n)
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), 0n)
  })

  test('a transfer that fails on chain credits nothing', async ({ client, assert }) => {
    const tx = await buyer.signedTransfer(500_000n)
    stack.devnet.faults.abort(tx.txid())

    const { response } = await buyer.topUp(client, '0.5', { tx })

    response.assertStatus(402)
    assert.equal(response.body().error, 'payment_failed')
    assert.equal(await creditOf(SENDER.address), 0n)
    assert.equal(await topUpPostings(tx.txid()), 0)
  })

  test('a top-up settles through a remote facilitator (FACILITATOR_URL) like a feed payment', async ({
    client,
    assert,
  }) => {
    const remote = new RemoteFacilitator({
      baseUrl: `http://${env.get('HOST')}:${env.get('PORT')}/facilitator`,
      payTo: stack.payTo,
      network: 'stacks:2147483648',
      timeoutMs: 1_000,
      maxBytes: paymentsConfig.facilitatorMaxBytes,
      proofKey: paymentsConfig.paywallProofKey,
      clock: new Clock(),
    })
    app.container.swap(PaymentSettlement, () => remote)
    try {
      const { response } = await buyer.topUp(client, '0.2')

      response.assertStatus(200)
      assert.containsSubset(response.body(), { credit: { balance_microstx: 200_000 } })
      assert.equal(await creditOf(SENDER.address), 200_000n)
    } finally {
      app.container.restore(PaymentSettlement)
    }
  })

  test('paid top-ups are rate limited per client address; quotes are not counted', async ({
    client,
    assert,
  }) => {
    await forgetRateLimitCounts()
    const restore = setRateLimits({ topUps: 1 })
    try {
      const quotes = await Promise.all(
        [1, 2, 3].map(() => client.post('/credit/top-ups').qs({ amount_stx: '0.1' }))
      )
      const paid = await buyer.topUp(client, '0.1')
      const refused = await buyer.topUp(client, '0.1')

      assert.deepEqual(
        quotes.map((quote) => quote.status()),
        [402, 402, 402]
      )
      paid.response.assertStatus(200)
      refused.response.assertStatus(429)
      refused.response.assertBodyContains({ error: { code: 'too_many_requests' } })
      assert.equal(await creditOf(SENDER.address), 100_000n)
    } finally {
      restore()
      await forgetRateLimitCounts()
    }
  })
})

/** The reconcile job with no grace and no wait: every row is due now. */
const AT_ONCE = { graceSeconds: 0, releaseAfterSeconds: 0, batchSize: 10 }

test.group('A top-up still settling when the request ends', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: null, settlementBudgetMs: 150 })
  const buyer = useTopUpBuyer(stack)

  test('answers 202 with a receipt, and is credited when the confirmation job runs', async ({
    client,
    assert,
  }) => {
    const { tx, response } = await buyer.topUp(client, '3')
    const receipt = response.body().receipt
    const early = await client.get(receipt.status_url).header('x-payment-receipt', receipt.token)
    const creditWhilePending = await creditOf(SENDER.address)

    await stack.devnet.mine()
    const reconciled = await app.container.make(ReconcilePayments).then((job) => job.run(AT_ONCE))
    const collected = await client
      .get(receipt.status_url)
      .header('x-payment-receipt', receipt.token)

    response.assertStatus(202)
    assert.containsSubset(response.body(), {
      error: 'settlement_pending',
      receipt: { txid: `0x${tx.txid()}`, status_url: `/payments/0x${tx.txid()}` },
    })
    early.assertStatus(202)
    assert.equal(creditWhilePending, 0n)
    assert.deepInclude(reconciled, { confirmed: 1 })
    collected.assertStatus(200)
    assert.deepEqual(collected.body(), {
      credit: { address: SENDER.address, balance_microstx: 3_000_000, balance_stx: '3' },
      top_up: { txid: `0x${tx.txid()}`, amount_microstx: 3_000_000 },
    })
    assert.equal(await creditOf(SENDER.address), 3_000_000n)
  })

  test('collected by its receipt once mined, it is credited then, once; a retry gets the same answer', async ({
    client,
    assert,
  }) => {
    const { tx, header, response } = await buyer.topUp(client, '0.5', {
      paymentIdentifier: 'pending-top-up-0001',
    })
    const receipt = response.body().receipt

    await stack.devnet.mine()
    const collected = await client
      .get(receipt.status_url)
      .header('x-payment-receipt', receipt.token)
    const reconciled = await app.container.make(ReconcilePayments).then((job) => job.run(AT_ONCE))
    const retried = await client
      .post('/credit/top-ups')
      .qs({ amount_stx: '0.5' })
      .header('payment-signature', header)

    response.assertStatus(202)
    collected.assertStatus(200)
    assert.deepEqual(collected.body(), {
      credit: { address: SENDER.address, balance_microstx: 500_000, balance_stx: '0.5' },
      top_up: { txid: `0x${tx.txid()}`, amount_microstx: 500_000 },
    })
    assert.deepInclude(reconciled, { confirmed: 0 })
    retried.assertStatus(200)
    assert.equal(retried.text(), collected.text())
    assert.equal(await creditOf(SENDER.address), 500_000n)
    assert.equal(await topUpPostings(tx.txid()), 1)
  })
})
