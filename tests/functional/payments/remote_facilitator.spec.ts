import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import env from '#start/env'
import { Clock } from '#core/clock'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { ReconcilePayments } from '#payments/reconcile_payments'
import { PaymentSettlement } from '#payments/settlement/payment_settlement'
import { RemoteFacilitator } from '#payments/settlement/remote_facilitator'
import { SENDER, transfer } from '#tests/support/devnet'
import { decodeHeader, paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { PaymentsConfig } from '#payments/define_config'

const paymentsConfig = await app.container.make(PaymentsConfig)

/**
 * The paywall settling through a remote facilitator (FACILITATOR_URL): here
 * this very service's /facilitator over real HTTP, and broken facilitators.
 */
test.group('Paying through a remote facilitator', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  function useFacilitatorAt(baseUrl: string) {
    const remote = new RemoteFacilitator({
      baseUrl,
      payTo: stack.payTo,
      network: 'stacks:2147483648',
      timeoutMs: 1_000,
      maxBytes: paymentsConfig.facilitatorMaxBytes,
      proofKey: paymentsConfig.paywallProofKey,
      clock: new Clock(),
    })
    app.container.swap(PaymentSettlement, () => remote)
  }

  async function pay(client: ApiClient) {
    const quote = await client.get('/feeds/whale-alerts')
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n, nonce: 0n })
    const response = await client
      .get('/feeds/whale-alerts')
      .header('payment-signature', paymentHeader(quote.body(), tx.serialize()))
    return { response, tx }
  }

  /** A facilitator that answers /verify correctly-shaped but /settle with `settleBody`. */
  async function brokenFacilitator(answers: { verify: string; settle: string }) {
    const server: Server = createServer((request, response) => {
      request.resume()
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(request.url?.endsWith('/verify') ? answers.verify : answers.settle)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/facilitator`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    }
  }

  test('a paid call settles through the remote facilitator and is recorded once', async ({
    client,
    assert,
  }) => {
    useFacilitatorAt(`http://${env.get('HOST')}:${env.get('PORT')}/facilitator`)

    const { response, tx } = await pay(client)

    response.assertStatus(200)
    assert.deepEqual(decodeHeader(response.header('payment-response')), {
      success: true,
      transaction: `0x${tx.txid()}`,
      network: 'stacks:2147483648',
      payer: SENDER.address,
    })
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), -5_000n)
    assert.equal(stack.devnet.nonceOf(SENDER.address), 1n)
  })

  test('a facilitator that answers nonsense before the broadcast costs nothing', async ({
    client,
    assert,
  }) => {
    const facilitator = await brokenFacilitator({ verify: '<html>oops</html>', settle: '{}' })
    useFacilitatorAt(facilitator.url)
    try {
      const { response } = await pay(client)
      response.assertStatus(503)
      assert.equal(response.body().error.code, 'facilitator_unavailable')
      assert.equal(stack.devnet.nonceOf(SENDER.address), 0n)
      const ledger = await app.container.make(Ledger)
      assert.equal(await ledger.balanceOf(accounts.platformWallet), 0n)
    } finally {
      await facilitator.close()
    }
  })

  test('a /verify answer above the size cap is no answer: nothing is broadcast', async ({
    client,
    assert,
  }) => {
    const verdict = { isValid: true, invalidReason: null, note: 'x'.repeat(70_000) }
    const facilitator = await brokenFacilitator({ verify: JSON.stringify(verdict), settle: '{}' })
    useFacilitatorAt(facilitator.url)
    try {
      const { response } = await pay(client)
      response.assertStatus(503)
      assert.equal(response.body().error.code, 'facilitator_unavailable')
      assert.equal(stack.devnet.nonceOf(SENDER.address), 0n)
    } finally {
      await facilitator.close()
    }
  })

  test('a refusal by the facilitator is a 402 with its reason', async ({ client, assert }) => {
    const facilitator = await brokenFacilitator({
      verify: JSON.stringify({ isValid: false, invalidReason: 'insufficient_funds' }),
      settle: '{}',
    })
    useFacilitatorAt(facilitator.url)
    try {
      const { response } = await pay(client)
      response.assertStatus(402)
      assert.equal(response.body().error, 'insufficient_funds')
    } finally {
      await facilitator.close()
    }
  })

  for (const errorReason of ['unexpected_settle_error', 'facilitator_exploded']) {
    test(`a facilitator that broadcast, then answered ${errorReason}, is not taken at its word: the payment is pending, credited and collected once mined`, async ({
      client,
      assert,
    }) => {
      // A third-party facilitator that broadcast, then failed in its own words.
      const server: Server = createServer(async (request, response) => {
        let body = ''
        for await (const chunk of request) body += chunk
        let answer: object = { isValid: true, invalidReason: null }
        if (request.url?.endsWith('/settle')) {
          const transaction = JSON.parse(body).paymentPayload.payload.transaction as string
          await fetch(`${stack.devnet.url}/v2/transactions`, {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream' },
            body: Buffer.from(transaction.slice(2), 'hex'),
          })
          answer = { success: false, errorReason }
        }
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(answer))
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      useFacilitatorAt(`http://127.0.0.1:${(server.address() as AddressInfo).port}/facilitator`)
      try {
        const { response } = await pay(client)
        const reconcile = await app.container.make(ReconcilePayments)
        const summary = await reconcile.run({
          graceSeconds: 0,
          releaseAfterSeconds: 0,
          batchSize: 10,
        })
        const collected = await client
          .get(response.body().receipt.status_url)
          .header('x-payment-receipt', response.body().receipt.token)

        response.assertStatus(202)
        assert.deepInclude(summary, { confirmed: 1 })
        collected.assertStatus(200)
        const ledger = await app.container.make(Ledger)
        assert.equal(await ledger.balanceOf(accounts.platformRevenue), -5_000n)
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
    })
  }

  test('an unreadable settle answer leaves the payment pending with a receipt', async ({
    client,
    assert,
  }) => {
    const facilitator = await brokenFacilitator({
      verify: JSON.stringify({ isValid: true, invalidReason: null }),
      settle: 'not json',
    })
    useFacilitatorAt(facilitator.url)
    try {
      const { response } = await pay(client)
      response.assertStatus(202)
      assert.equal(response.body().error, 'settlement_pending')
      assert.isString(response.body().receipt.token)
    } finally {
      await facilitator.close()
    }
  })
})
