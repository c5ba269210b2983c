import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { PlatformWallet } from '#chain/platform_wallet'
import { type Devnet, pointAppAtDevnet } from '#tests/support/chain'
import { SENDER, transfer } from '#tests/support/devnet'
import { PaymentsConfig } from '#payments/define_config'
import { changeConfig } from '#tests/support/config'
import { withoutSettlementDelays } from '#tests/support/paid_calls'
import { inGlobalTransaction } from '#tests/support/database'

const NETWORK = 'stacks:2147483648'

/** The seed's /verify and /settle body for a signed transfer. */
function body(hex: string, amount: string, payTo: string) {
  return {
    x402Version: 2,
    paymentPayload: { payload: { transaction: hex } },
    paymentRequirements: { amount, payTo },
  }
}

test.group('Facilitator', (group) => {
  let devnet: Devnet
  let payTo: string

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const pointed = await pointAppAtDevnet()
    devnet = pointed.devnet
    const wallet = await app.container.make(PlatformWallet)
    payTo = wallet.address
    const restoreConfig = withoutSettlementDelays(2_000)
    return async () => {
      restoreConfig()
      await pointed.cleanup()
    }
  })

  async function payment(amount: bigint, overrides: { recipient?: string; nonce?: bigint } = {}) {
    const tx = await transfer({
      recipient: overrides.recipient ?? payTo,
      amount,
      nonce: overrides.nonce ?? 0n,
    })
    return { tx, hex: tx.serialize() }
  }

  test('GET /supported lists exact STX payments on mainnet and testnet', async ({ client }) => {
    const response = await client.get('/facilitator/supported')

    response.assertStatus(200)
    response.assertBody({
      x402Version: 2,
      kinds: [
        { x402Version: 2, scheme: 'exact', network: 'stacks:1', asset: 'STX' },
        { x402Version: 2, scheme: 'exact', network: NETWORK, asset: 'STX' },
      ],
      extensions: [],
      signers: {},
    })
  })

  test('POST /verify accepts a valid payment without broadcasting it', async ({
    client,
    assert,
  }) => {
    const { tx, hex } = await payment(5_000n)

    const response = await client.post('/facilitator/verify').json(body(hex, '5000', payTo))

    response.assertStatus(200)
    response.assertBody({ valid: true, isValid: true, payer: SENDER.address, invalidReason: null })
    const onChain = await fetch(`${devnet.url}/extended/v1/tx/0x${tx.txid()}`)
    assert.equal(onChain.status, 404)
  })

  test('POST /verify names the rule a payment breaks', async ({ client }) => {
    const underpaid = await payment(4_999n)
    const elsewhere = await payment(5_000n, {
      recipient: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
    })

    const low = await client.post('/facilitator/verify').json(body(underpaid.hex, '5000', payTo))
    const wrongRecipient = await client
      .post('/facilitator/verify')
      .json(body(elsewhere.hex, '5000', payTo))
    const notOurs = await client
      .post('/facilitator/verify')
      .json(body(elsewhere.hex, '5000', 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG'))
    const garbage = await client.post('/facilitator/verify').json(body('00ff', '5000', payTo))

    low.assertBodyContains({ valid: false, isValid: false, invalidReason: 'insufficient_amount' })
    wrongRecipient.assertBodyContains({ valid: false, invalidReason: 'invalid_recipient' })
    notOurs.assertBodyContains({ valid: false, invalidReason: 'invalid_recipient' })
    garbage.assertBodyContains({ valid: false, invalidReason: 'invalid_payload' })
  })

  test('malformed facilitator requests are 422 with field messages', async ({ client }) => {
    const response = await client
      .post('/facilitator/settle')
      .json({ paymentPayload: { payload: {} } })

    response.assertStatus(422)
    response.assertBodyContains({ error: { code: 'validation_failed' } })
  })

  test('POST /settle broadcasts, waits for the block and reports success once; the same transfer again is already used', async ({
    client,
    assert,
  }) => {
    const { tx, hex } = await payment(5_000n)
    const balanceBefore = devnet.balanceOf(payTo)
    devnet.setBlockTime(0)

    const settled = await client.post('/facilitator/settle').json(body(hex, '5000', payTo))
    const again = await client.post('/facilitator/settle').json(body(hex, '5000', payTo))

    const expected = {
      success: true,
      payer: SENDER.address,
      transaction: `0x${tx.txid()}`,
      network: NETWORK,
    }
    settled.assertBody(expected)
    again.assertBody({ ...expected, success: false, errorReason: 'payment_already_used' })
    assert.equal(devnet.balanceOf(payTo), balanceBefore + 5_000n, 'paid once')
  })

  test('POST /settle answers settlement_pending when no block comes within the budget', async ({
    client,
    cleanup,
  }) => {
    cleanup(changeConfig(await app.container.make(PaymentsConfig), { settlementBudgetMs: 150 }))
    const { tx, hex } = await payment(5_000n)

    const response = await client.post('/facilitator/settle').json(body(hex, '5000', payTo))

    response.assertBody({
      success: false,
      payer: SENDER.address,
      transaction: `0x${tx.txid()}`,
      network: NETWORK,
      errorReason: 'settlement_pending',
    })
  })

  test('POST /settle retries a broadcast the node rate-limits', async ({ client }) => {
    devnet.faults.failNext(2, 429, '/v2/transactions')
    const { hex } = await payment(5_000n)
    devnet.setBlockTime(0)

    const settled = await client.post('/facilitator/settle').json(body(hex, '5000', payTo))

    settled.assertBodyContains({ success: true })
  })

  test("POST /settle reports the node's rejection and an already used nonce", async ({
    client,
  }) => {
    const first = await payment(5_000n)
    const sameNonce = await payment(6_000n)
    await fetch(`${devnet.url}/v2/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: first.hex }),
    })

    const conflicting = await client
      .post('/facilitator/settle')
      .json(body(sameNonce.hex, '5000', payTo))
    await devnet.mine()
    const reused = await payment(7_000n)
    const used = await client.post('/facilitator/settle').json(body(reused.hex, '5000', payTo))

    conflicting.assertBodyContains({ success: false, errorReason: 'conflicting_nonce' })
    used.assertBodyContains({ success: false, errorReason: 'bad_nonce' })
  })
})
