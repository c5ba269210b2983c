import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { PaymentLifecycle } from '#payments/payment_lifecycle'
import { ReconcilePayments } from '#payments/reconcile_payments'
import { broadcast, transfer } from '#tests/support/devnet'
import { paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'

/** The reconcile job with no grace and no wait: every row is due now. */
const AT_ONCE = { graceSeconds: 0, releaseAfterSeconds: 0, batchSize: 10 }

test.group('Payments still settling when the request ends', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: null, settlementBudgetMs: 150 })

  async function payPending(client: import('@japa/api-client').ApiClient) {
    const requirements = await client.get('/feeds/whale-alerts')
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n })
    const response = await client
      .get('/feeds/whale-alerts')
      .header('payment-signature', paymentHeader(requirements.body(), tx.serialize()))
    return { tx, response }
  }

  test('a payment not confirmed within the budget gets 202 and a receipt to collect the data', async ({
    client,
    assert,
  }) => {
    const { tx, response } = await payPending(client)

    response.assertStatus(202)
    assert.equal(response.header('retry-after'), '5')
    const receipt = response.body().receipt
    assert.containsSubset(response.body(), {
      x402Version: 2,
      error: 'settlement_pending',
      receipt: { txid: `0x${tx.txid()}`, status_url: `/payments/0x${tx.txid()}` },
    })
    assert.isString(receipt.token)

    const early = await client.get(receipt.status_url).header('x-payment-receipt', receipt.token)
    early.assertStatus(202)

    await stack.devnet.mine()
    const collected = await client
      .get(receipt.status_url)
      .header('x-payment-receipt', receipt.token)
    const again = await client.get(receipt.status_url).header('x-payment-receipt', receipt.token)

    collected.assertStatus(200)
    assert.containsSubset(collected.body(), { price: 5000, price_stx: '0.005' })
    assert.equal(collected.header('cache-control'), 'no-store', 'kept by no cache on the way')
    assert.deepEqual(again.body(), collected.body())
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), -5_000n)
  })

  // Found by the simulation (seed 1): "dropped" was taken as final, the buyer told
  // payment_failed, and the transfer then mined — charged for data it never got.
  // A transfer unknown to the node long after its broadcast was likewise released.
  const stillPending = [
    {
      title: 'a payment the node reports dropped is still pending',
      fault: () => stack.devnet.faults.transactionFaultNext('report_dropped', 1),
    },
    {
      title: 'a payment the node no longer knows is still pending',
      fault: () => stack.devnet.faults.transactionFaultNext('report_unknown', 1),
    },
  ]
  for (const { title, fault } of stillPending) {
    test(`${title}, and credited when it is mined after all`, async ({ client, assert }) => {
      fault()
      const { response } = await payPending(client)
      const receipt = response.body().receipt
      const reconcile = await app.container.make(ReconcilePayments)

      const whileGone = await reconcile.run(AT_ONCE)
      await stack.devnet.mine()
      const mined = await reconcile.run(AT_ONCE)
      const collected = await client
        .get(receipt.status_url)
        .header('x-payment-receipt', receipt.token)

      response.assertStatus(202)
      assert.deepInclude(whileGone, { pending: 1, failed: 0, released: 0 })
      assert.deepInclude(mined, { confirmed: 1 })
      collected.assertStatus(200)
      const ledger = await app.container.make(Ledger)
      assert.equal(await ledger.balanceOf(accounts.platformRevenue), -5_000n)
    })
  }

  test('a payment whose broadcast never reached the node is not sent again: nothing is charged, and the buyer may pay again at its nonce', async ({
    client,
    assert,
  }) => {
    stack.devnet.faults.timeoutNext(1, '/v2/transactions')
    const { tx: lost, response } = await payPending(client)
    const reconcile = await app.container.make(ReconcilePayments)

    const first = await reconcile.run(AT_ONCE)
    await stack.devnet.mine()
    const afterBlock = await reconcile.run(AT_ONCE)
    const onChain = await fetch(`${stack.devnet.url}/extended/v1/tx/0x${lost.txid()}`)
    const requirements = await client.get('/feeds/whale-alerts')
    const again = await transfer({ recipient: stack.payTo, amount: 5_000n, fee: 10_000n })
    const retried = await client
      .get('/feeds/whale-alerts')
      .header('payment-signature', paymentHeader(requirements.body(), again.serialize()))
    await stack.devnet.mine()
    const settled = await reconcile.run(AT_ONCE)

    response.assertStatus(202)
    assert.deepInclude(first, { pending: 1, released: 0 })
    assert.deepInclude(afterBlock, { pending: 1, confirmed: 0 })
    assert.equal(onChain.status, 404)
    assert.equal(again.auth.spendingCondition.nonce, lost.auth.spendingCondition.nonce)
    retried.assertStatus(202)
    assert.deepInclude(settled, { confirmed: 1, failed: 1 })
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), -5_000n)
  })

  const nonceUsedElsewhere = [
    { title: 'a dropped payment', fault: () => {} },
    {
      title: 'a payment the node no longer knows',
      fault: () => stack.devnet.faults.transactionFaultNext('report_unknown', 1),
    },
  ]
  for (const { title, fault } of nonceUsedElsewhere) {
    test(`${title} fails once the buyer used its nonce for another transfer`, async ({
      client,
      assert,
    }) => {
      fault()
      const { tx, response } = await payPending(client)
      const replacement = await transfer({ amount: 1n, fee: 10_000n })
      await broadcast(stack.devnet, replacement)
      const reconcile = await app.container.make(ReconcilePayments)

      const replaced = await reconcile.run(AT_ONCE)
      await stack.devnet.mine()
      const nonceUsed = await reconcile.run(AT_ONCE)

      response.assertStatus(202)
      assert.deepInclude(replaced, { pending: 1, failed: 0 })
      assert.deepInclude(nonceUsed, { failed: 1, released: 0 })
      const db = await app.container.make('lucid.db')
      const row = await db.from('payments').where('txid', tx.txid()).first()
      assert.equal(row.status, 'failed')
      const ledger = await app.container.make(Ledger)
      assert.equal(await ledger.balanceOf(accounts.platformWallet), 0n)
    })
  }

  test('a buyer whose payment the node dropped can pay again at that nonce; the one mined wins', async ({
    client,
    assert,
  }) => {
    // Found in review: a dropped payment held its nonce forever, so the buyer's
    // next payment (signed at the same nonce) was refused with conflicting_nonce.
    stack.devnet.faults.transactionFaultNext('report_dropped', 1)
    const { tx: dropped, response } = await payPending(client)
    const reconcile = await app.container.make(ReconcilePayments)
    const options = { graceSeconds: 0, releaseAfterSeconds: 600, batchSize: 10 }
    assert.deepInclude(await reconcile.run(options), { pending: 1 })

    const requirements = await client.get('/feeds/whale-alerts')
    const again = await transfer({ recipient: stack.payTo, amount: 5_000n, fee: 10_000n })
    const retried = await client
      .get('/feeds/whale-alerts')
      .header('payment-signature', paymentHeader(requirements.body(), again.serialize()))
    await stack.devnet.mine()
    const settled = await reconcile.run(options)

    response.assertStatus(202)
    assert.equal(again.txid() === dropped.txid(), false)
    retried.assertStatus(202)
    assert.deepInclude(settled, { confirmed: 1, failed: 1 })
    const db = await app.container.make('lucid.db')
    const rows = await db.from('payments').whereIn('txid', [dropped.txid(), again.txid()])
    const statusOf = (txid: string) => rows.find((row) => row.txid === txid)?.status
    assert.equal(statusOf(again.txid()), 'confirmed')
    assert.equal(statusOf(dropped.txid()), 'failed')
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), -5_000n)
  })

  test('a wrong or missing receipt learns nothing', async ({ client }) => {
    const { tx } = await payPending(client)

    const wrong = await client.get(`/payments/0x${tx.txid()}`).header('x-payment-receipt', 'guess')
    const missing = await client.get(`/payments/0x${tx.txid()}`)
    const malformed = await client.get('/payments/not-a-txid')

    wrong.assertStatus(404)
    missing.assertStatus(404)
    malformed.assertStatus(404)
    malformed.assertBodyContains({ error: { code: 'payment_not_found' } })
  })

  test('the reconcile job credits a payment whose buyer never came back, exactly once', async ({
    client,
    assert,
  }) => {
    await payPending(client)
    await stack.devnet.mine()
    const reconcile = await app.container.make(ReconcilePayments)
    const options = { graceSeconds: 0, releaseAfterSeconds: 600, batchSize: 10 }

    const first = await reconcile.run(options)
    const second = await reconcile.run(options)

    assert.deepInclude(first, { confirmed: 1 })
    assert.deepInclude(second, { confirmed: 0 })
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), -5_000n)
    const stats = await client.get('/stats')
    assert.equal(stats.body().total_queries_served, 1)
  })

  const STALE = 'ab'.repeat(32)

  /** A payment row of an hour ago, its request long gone, unknown to the chain. */
  async function stalePayment(row: {
    status: 'claimed' | 'broadcast'
    droppedSecondsAgo?: number
  }) {
    const db = await app.container.make('lucid.db')
    const feed = await db.from('feeds').where('slug', 'whale-alerts').first()
    const idle = new Date(Date.now() - (row.droppedSecondsAgo ?? 3_600) * 1_000)
    await db.table('payments').insert({
      txid: STALE,
      feed_id: feed.id,
      resource: 'GET /feeds/whale-alerts',
      payer: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
      amount_microstx: 5000,
      nonce: 0,
      network: 'stacks:2147483648',
      raw_tx: Buffer.from([1]),
      status: row.status,
      claimed_at: new Date(Date.now() - 3_600_000),
      updated_at: idle,
      dropped_at: row.droppedSecondsAgo === undefined ? null : idle,
    })
    return () => db.from('payments').where('txid', STALE).first()
  }

  test('the reconcile job releases a claim never handed to the node that the chain never saw', async ({
    assert,
  }) => {
    const current = await stalePayment({ status: 'claimed' })
    const reconcile = await app.container.make(ReconcilePayments)

    const summary = await reconcile.run({
      graceSeconds: 30,
      releaseAfterSeconds: 600,
      batchSize: 10,
    })

    assert.deepInclude(summary, { released: 1 })
    const row = await current()
    assert.equal(row.status, 'released')
    assert.equal(row.failure_reason, 'never_broadcast')
  })

  test('a claim its request hands over while the reconcile job looks at it is not released', async ({
    assert,
  }) => {
    const current = await stalePayment({ status: 'claimed' })
    // The request, slow but alive, hands the claim over between the job's lease and its release.
    class HandedOverMeanwhile extends PaymentLifecycle {
      async release(txid: string, reason: string) {
        await this.handOver(txid, null)
        return super.release(txid, reason)
      }
    }
    app.container.swap(PaymentLifecycle, () => app.container.make(HandedOverMeanwhile))
    try {
      const reconcile = await app.container.make(ReconcilePayments)
      const summary = await reconcile.run({
        graceSeconds: 30,
        releaseAfterSeconds: 600,
        batchSize: 10,
      })

      assert.deepInclude(summary, { released: 0, pending: 1 })
      const row = await current()
      assert.equal(row.status, 'broadcast')
    } finally {
      app.container.restore(PaymentLifecycle)
    }
  })

  test('a dropped payment is looked at again only every droppedRecheckSeconds', async ({
    assert,
  }) => {
    const current = await stalePayment({ status: 'broadcast', droppedSecondsAgo: 60 })
    const reconcile = await app.container.make(ReconcilePayments)
    const options = { graceSeconds: 30, releaseAfterSeconds: 600, batchSize: 10 }

    const notYet = await reconcile.run({ ...options, droppedRecheckSeconds: 300 })
    const due = await reconcile.run({ ...options, droppedRecheckSeconds: 30 })

    assert.deepEqual(notYet, { confirmed: 0, failed: 0, released: 0, pending: 0, unsettled: 0 })
    assert.deepEqual(due, { confirmed: 0, failed: 0, released: 0, pending: 1, unsettled: 0 })
    const row = await current()
    assert.equal(row.status, 'broadcast')
  })

  test('the reconcile job never credits a claim it did not hand to the node, though the chain has it', async ({
    assert,
  }) => {
    // A buyer's claim whose request died before the broadcast; the buyer then broadcast it itself.
    const db = await app.container.make('lucid.db')
    const feed = await db.from('feeds').where('slug', 'whale-alerts').first()
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n })
    await broadcast(stack.devnet, tx)
    await stack.devnet.mine()
    await db.table('payments').insert({
      txid: tx.txid(),
      feed_id: feed.id,
      resource: 'GET /feeds/whale-alerts',
      payer: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
      amount_microstx: 5000,
      network: 'stacks:2147483648',
      raw_tx: Buffer.from(tx.serializeBytes()),
      status: 'claimed',
    })
    const reconcile = await app.container.make(ReconcilePayments)

    const summary = await reconcile.run({
      graceSeconds: 0,
      releaseAfterSeconds: 600,
      batchSize: 10,
    })

    assert.deepInclude(summary, { confirmed: 0, failed: 1 })
    const row = await db.from('payments').where('txid', tx.txid()).first()
    assert.equal(row.status, 'failed')
    assert.equal(row.failure_reason, 'transaction_already_broadcast')
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformWallet), 0n)
  })
})
