import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { StacksClient } from '#chain/stacks_client'
import { Clock } from '#core/clock'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import Feed from '#models/feed'
import { PaymentLifecycle } from '#payments/payment_lifecycle'
import { pointAppAtChain, stacksClientOptions } from '#tests/support/chain'
import { SENDER, transfer } from '#tests/support/devnet'
import { decodeHeader, paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'

const FEED = '/feeds/whale-alerts'

/**
 * Answers of a paid call that end in an error after the payment header
 * decoded: each still names the transaction in `payment-response`, and the
 * ones a client should retry say when.
 */
test.group('Paid calls that end in an error', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  async function pay(client: ApiClient) {
    const quote = await client.get(FEED)
    const required = quote.body()
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n, nonce: 0n })
    const response = await client
      .get(FEED)
      .header('payment-signature', paymentHeader(required, tx.serialize()))
    return { tx, response }
  }

  function paymentResponseOf(response: { header(name: string): string | undefined }) {
    return decodeHeader(response.header('payment-response'))
  }

  test('a payer with five payments settling gets 429 with Retry-After and its payment-response', async ({
    client,
    assert,
  }) => {
    const lifecycle = await app.container.make(PaymentLifecycle)
    const feed = await Feed.findByOrFail('slug', 'whale-alerts')
    for (let n = 1; n <= 5; n++) {
      await lifecycle.claim({
        purpose: 'feed',
        payment: {
          txid: n.toString(16).padStart(64, 'f'),
          payer: SENDER.address,
          amount: 5_000n,
          fee: 1_000n,
          nonce: BigInt(100 + n),
          bytes: new Uint8Array([n]),
        },
        feedId: feed.id,
        resource: `GET ${FEED}`,
        network: 'stacks:2147483648',
      })
    }

    const { tx, response } = await pay(client)

    response.assertStatus(429)
    response.assertBodyContains({ error: { code: 'too_many_payments_in_flight' } })
    assert.equal(response.header('retry-after'), '5')
    assert.deepEqual(paymentResponseOf(response), {
      success: false,
      transaction: `0x${tx.txid()}`,
      network: 'stacks:2147483648',
      payer: SENDER.address,
      errorReason: 'too_many_payments_in_flight',
    })
  })

  test('a node that rate-limits every broadcast gets 503 with Retry-After; the payment is released', async ({
    client,
    assert,
  }) => {
    stack.devnet.faults.failNext(3, 429, '/v2/transactions', { retryAfterSeconds: null })

    const { tx, response } = await pay(client)

    response.assertStatus(503)
    response.assertBodyContains({ error: { code: 'settlement_unavailable' } })
    assert.equal(response.header('retry-after'), '5')
    assert.containsSubset(paymentResponseOf(response), {
      success: false,
      transaction: `0x${tx.txid()}`,
      errorReason: 'rate_limited',
    })
    const row = await db.from('payments').where('txid', tx.txid()).select('status').first()
    assert.equal(row.status, 'released')
  })

  test('an error after the broadcast still names the transaction the buyer paid with', async ({
    client,
    assert,
  }) => {
    // Fault injection: the ledger fails while recording the confirmation.
    class FailingLedger extends Ledger {
      async post(): Promise<never> {
        throw new Error('the ledger is down')
      }
    }
    const clock = await app.container.make(Clock)
    app.container.swap(Ledger, () => new FailingLedger(db, clock))

    try {
      const { tx, response } = await pay(client)

      response.assertStatus(500)
      response.assertBodyContains({ error: { code: 'internal_error' } })
      assert.notInclude(response.text(), 'the ledger is down')
      assert.deepEqual(paymentResponseOf(response), {
        success: false,
        transaction: `0x${tx.txid()}`,
        network: 'stacks:2147483648',
        payer: SENDER.address,
        errorReason: 'unexpected_settle_error',
      })
      const row = await db.from('payments').where('txid', tx.txid()).select('status').first()
      assert.equal(row.status, 'broadcast', 'left for the reconcile job, never released')
    } finally {
      app.container.restore(Ledger)
    }
  })

  test('a node answer above the size cap is chain_node_bad_answer: nothing broadcast, no money moved', async ({
    client,
    assert,
  }) => {
    // The payer's /v2/accounts answer is ~100 bytes: a 64-byte cap makes it too big.
    const chain = await pointAppAtChain(stack.devnet.url, {
      client: (url) => new StacksClient(stacksClientOptions(url, { maxBytes: 64 })),
    })

    try {
      const { tx, response } = await pay(client)

      response.assertStatus(502)
      assert.equal(response.body().error.code, 'chain_node_bad_answer')
      assert.equal(stack.devnet.nonceOf(SENDER.address), 0n)
      const row = await db.from('payments').where('txid', tx.txid()).first()
      assert.deepInclude(row, { status: 'released', broadcast_at: null }, 'claimed, then let go')
      const ledger = await app.container.make(Ledger)
      assert.equal(await ledger.balanceOf(accounts.platformWallet), 0n)
    } finally {
      chain.restore()
    }
  })
})
