import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { randomPrivateKey } from '@stacks/transactions'
import { sources as driverFactories } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { SENDER, broadcast, transfer } from '#tests/support/devnet'
import { paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { PaymentsConfig } from '#payments/define_config'
import { changeConfig } from '#tests/support/config'
import { startPartnerServer, type PartnerServer } from '#tests/support/partner_server'
import { newOwner, registerProvider } from '#tests/support/providers'

const PROVIDER_FEED = '/feeds/p/acme-data/cheap'
const BUILTIN_FEED = '/feeds/whale-alerts'

/**
 * Transfers this service did not broadcast, and payments the node would
 * refuse, never buy a response, never reach a source and never credit
 * anyone (the attack report of issue 9). Wallet A (a fresh owner) sells a
 * feed at 0.0001 STX; the transfers come from wallet B (SENDER).
 */
test.group('Payments this service cannot redeem', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: null, settlementBudgetMs: 3_000 })
  let partner: PartnerServer
  let providerId: string

  group.each.setup(async () => {
    partner = await startPartnerServer({ routes: ['/v1/prices'] })
    sources.fake(
      'partner_bridge',
      driverFactories.partnerBridge({ timeoutMs: 5_000, maxBytes: 1_048_576 })
    )
    return async () => {
      await sources.restore('partner_bridge')
      await partner.close()
    }
  })

  /** Wallet A's provider with a feed at the lowest price, 0.0001 STX. */
  async function attackerProvider(client: ApiClient) {
    const owner = await newOwner(client)
    const body = await registerProvider(client, owner.token, {
      partner_endpoint: partner.url,
      feed: {
        slug: 'cheap',
        display_name: 'Cheap',
        price_stx: '0.0001',
        source_path: '/v1/prices',
      },
    })
    partner.secret = body.hmac_secret!
    providerId = body.provider.id
  }

  /** The seed's /verify and /settle body for a signed transfer. */
  function facilitatorBody(tx: { serialize(): string }, amount: string) {
    return {
      paymentPayload: { payload: { transaction: tx.serialize() } },
      paymentRequirements: { amount, payTo: stack.payTo },
    }
  }

  /** Each accepted transaction is mined at once (the paid call waits for its block). */
  function mineContinuously() {
    stack.devnet.setBlockTime(0)
  }

  async function present(client: ApiClient, path: string, hex: string) {
    const quote = await client.get(path)
    return client.get(path).header('payment-signature', paymentHeader(quote.body(), hex))
  }

  async function assertNothingCredited(assert: { equal: Function }) {
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.platformWallet), 0n)
    assert.equal(await ledger.balanceOf(accounts.providerPending(providerId)), 0n)
    const provider = await db.from('providers').where('id', providerId).firstOrFail()
    assert.equal(String(provider.pending_revenue_microstx), '0')
  }

  test('a top-up to the platform wallet, mined before anyone presents it, is refused at every feed', async ({
    client,
    assert,
  }) => {
    await attackerProvider(client)
    const topUp = await transfer({ recipient: stack.payTo, amount: 500_000_000n, nonce: 0n })
    const broadcastDirectly = await broadcast(stack.devnet, topUp)
    assert.equal(broadcastDirectly.status, 200)
    await stack.devnet.mine()

    for (const path of [PROVIDER_FEED, BUILTIN_FEED]) {
      const response = await present(client, path, topUp.serialize())
      response.assertStatus(402)
      assert.equal(response.body().error, 'transaction_already_broadcast')
    }

    assert.lengthOf(partner.calls, 0)
    await assertNothingCredited(assert)
    const redeemed = await db
      .from('payments')
      .where('txid', topUp.txid())
      .whereNot('status', 'released')
    assert.lengthOf(redeemed, 0)
  })

  test('a transfer its buyer broadcast itself (still in the mempool) is refused at every feed', async ({
    client,
    assert,
  }) => {
    await attackerProvider(client)
    const selfBroadcast = await transfer({ recipient: stack.payTo, amount: 5_000n, nonce: 0n })
    const broadcastDirectly = await broadcast(stack.devnet, selfBroadcast)
    assert.equal(broadcastDirectly.status, 200)

    for (const path of [PROVIDER_FEED, BUILTIN_FEED]) {
      const response = await present(client, path, selfBroadcast.serialize())
      response.assertStatus(402)
      assert.equal(response.body().error, 'transaction_already_broadcast')
    }

    assert.lengthOf(partner.calls, 0)
    await stack.devnet.mine()
    await assertNothingCredited(assert)
  })

  test('a feed payment still settling cannot be verified or settled through the facilitator', async ({
    client,
    assert,
    cleanup,
  }) => {
    await attackerProvider(client)
    cleanup(changeConfig(await app.container.make(PaymentsConfig), { settlementBudgetMs: 100 }))
    const tx = await transfer({ recipient: stack.payTo, amount: 100n, nonce: 0n })
    const pending = await present(client, PROVIDER_FEED, tx.serialize())
    pending.assertStatus(202)

    const body = facilitatorBody(tx, '100')
    const verified = await client.post('/facilitator/verify').json(body)
    const settled = await client
      .post('/facilitator/settle')
      .header('x-tollbooth-paywall-proof', 'f'.repeat(64))
      .json(body)

    verified.assertBodyContains({ valid: false, invalidReason: 'payment_already_used' })
    settled.assertBodyContains({ success: false, errorReason: 'payment_already_used' })
    await stack.devnet.mine()
    assert.equal(stack.devnet.nonceOf(SENDER.address), 1n, 'one transfer, broadcast once')
  })

  test('a transfer settled through /facilitator/settle cannot also buy a feed', async ({
    client,
    assert,
  }) => {
    await attackerProvider(client)
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n, nonce: 0n })
    mineContinuously()
    const settled = await client.post('/facilitator/settle').json(facilitatorBody(tx, '5000'))
    settled.assertBodyContains({ success: true })

    for (const path of [PROVIDER_FEED, BUILTIN_FEED]) {
      const response = await present(client, path, tx.serialize())
      response.assertStatus(402)
      assert.equal(response.body().error, 'payment_already_used')
    }
    assert.lengthOf(partner.calls, 0)
    await assertNothingCredited(assert)
  })

  test('a transfer redeemed at a feed cannot be settled again through the facilitator', async ({
    client,
    assert,
  }) => {
    await attackerProvider(client)
    const tx = await transfer({ recipient: stack.payTo, amount: 100n, nonce: 0n })
    mineContinuously()
    const paid = await present(client, PROVIDER_FEED, tx.serialize())
    paid.assertStatus(200)

    const body = facilitatorBody(tx, '100')
    const verified = await client.post('/facilitator/verify').json(body)
    const settled = await client.post('/facilitator/settle').json(body)

    verified.assertBodyContains({ valid: false, invalidReason: 'payment_already_used' })
    settled.assertBodyContains({ success: false, errorReason: 'payment_already_used' })
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.providerPending(providerId)), -97n)
  })

  test('the facilitator refuses to verify or settle a transfer the chain already has', async ({
    client,
  }) => {
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n, nonce: 0n })
    await broadcast(stack.devnet, tx)
    const body = facilitatorBody(tx, '5000')

    const verified = await client.post('/facilitator/verify').json(body)
    const settled = await client.post('/facilitator/settle').json(body)

    verified.assertBodyContains({ valid: false, invalidReason: 'transaction_already_broadcast' })
    settled.assertBodyContains({ success: false, errorReason: 'transaction_already_broadcast' })
  })

  test('payments the node would refuse (fee 0, a nonce far ahead, an empty wallet) never reach the partner', async ({
    client,
    assert,
  }) => {
    await attackerProvider(client)
    const cases: [Promise<Awaited<ReturnType<typeof transfer>>>, string][] = [
      [transfer({ recipient: stack.payTo, amount: 100n, fee: 0n }), 'fee_too_low'],
      [transfer({ recipient: stack.payTo, amount: 100n, nonce: 26n }), 'bad_nonce'],
      [transfer({ recipient: stack.payTo, amount: 100n, nonce: 1n }), 'bad_nonce'],
      [
        transfer({ recipient: stack.payTo, amount: 100n, senderKey: randomPrivateKey() }),
        'insufficient_funds',
      ],
    ]
    for (const [signing, code] of cases) {
      const signed = await signing
      const hex = signed.serialize()
      for (let attempt = 0; attempt < 10; attempt++) {
        const response = await present(client, PROVIDER_FEED, hex)
        response.assertStatus(402)
        assert.equal(response.body().error, code)
      }
    }

    assert.lengthOf(partner.calls, 0)
    assert.equal(stack.devnet.nonceOf(SENDER.address), 0n)
    await assertNothingCredited(assert)
  })

  test('an agent paying concurrently with consecutive nonces is served every time', async ({
    client,
    assert,
  }) => {
    await attackerProvider(client)
    mineContinuously()
    const payments = await Promise.all(
      [0n, 1n, 2n].map((nonce) => transfer({ recipient: stack.payTo, amount: 100n, nonce }))
    )

    const responses = await Promise.all(
      payments.map((tx) => present(client, PROVIDER_FEED, tx.serialize()))
    )

    assert.deepEqual(
      responses.map((response) => response.status()),
      [200, 200, 200]
    )
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.providerPending(providerId)), -3n * 97n)
  })
})
