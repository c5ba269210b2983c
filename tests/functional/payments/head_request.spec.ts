import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { headerPaymentRequired, type PaymentRequired } from '#payments/x402'
import { SENDER, transfer } from '#tests/support/devnet'
import { decodeHeader, paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { mirrorRegistration, newOwner, registerProvider } from '#tests/support/providers'
import { rawCall } from '#tests/support/fuzz'

test.group('A HEAD request to a feed', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  /** A provider's manual_upload feed holding a document: /feeds/p/mirror-co/rates. */
  async function uploadFeed(client: ApiClient) {
    const owner = await newOwner(client)
    const registered = await registerProvider(
      client,
      owner.token,
      mirrorRegistration({ type: 'manual_upload' }, 'rates')
    )
    const path = `/providers/id/${registered.provider.id}/feeds/rates/upload`
    return rawCall('POST', path, { body: '{"EUR": 1.08}', token: owner.token })
  }

  test(
    'takes no payment at {$self}: it is quoted like the unpaid GET, and the payment still buys the data'
  )
    .with(['/feeds/whale-alerts', '/feeds/p/mirror-co/rates'])
    .run(async ({ client, assert }, path) => {
      if (path.startsWith('/feeds/p/')) {
        const uploaded = await uploadFeed(client)
        assert.equal(uploaded.status, 200)
      }
      const quote = await client.get(path)
      quote.assertStatus(402)
      const required = quote.body() as PaymentRequired
      const tx = await transfer({
        recipient: stack.payTo,
        amount: BigInt(required.accepts[0].amount),
      })
      const header = paymentHeader(required, tx.serialize())

      const head = await client.head(path).header('payment-signature', header)

      head.assertStatus(402)
      assert.deepEqual(
        decodeHeader(head.header('payment-required')),
        headerPaymentRequired(required)
      )
      assert.isNull(await db.from('payments').where('txid', tx.txid()).first(), 'nothing claimed')
      const broadcast = await fetch(`${stack.devnet.url}/extended/v1/tx/0x${tx.txid()}`)
      assert.equal(broadcast.status, 404, 'nothing broadcast')
      const ledger = await app.container.make(Ledger)
      assert.equal(await ledger.balanceOf(accounts.platformWallet), 0n, 'nothing credited')

      const paid = await client.get(path).header('payment-signature', header)

      paid.assertStatus(200)
      assert.containsSubset(decodeHeader(paid.header('payment-response')), {
        success: true,
        transaction: `0x${tx.txid()}`,
        payer: SENDER.address,
      })
      assert.isDefined(paid.body().data)
    })
})
