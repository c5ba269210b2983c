import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Clock } from '#core/clock'
import { Ledger } from '#ledger/ledger'
import { newWallet, topUp } from '#tests/support/credit'
import { transfer } from '#tests/support/devnet'
import { paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { logLinesSince, runLogSoFar } from '#tests/support/run_log'
import { signMessage } from '#tests/support/sign_in'
import { providerWithRevenue, useWithdrawalStack } from '#tests/support/withdrawals'
import { inGlobalTransaction } from '#tests/support/database'

type LogLine = Record<string, unknown>

/** The lines one request logged, by the request id its response carries; at least its closing line. */
function linesOf(lines: LogLine[], response: { header(name: string): string | undefined }) {
  const requestId = response.header('x-request-id')
  return lines.filter((line) => line.request_id === requestId)
}

function assertEveryLineCarries(assert: Assert, lines: LogLine[], fields: LogLine) {
  assert.isTrue(
    lines.some((line) => line.msg === 'request completed'),
    'the closing line is there'
  )
  for (const line of lines) assert.containsSubset(line, fields, `"${line.msg}"`)
}

test.group('Log lines of a paid call', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  async function pay(client: ApiClient) {
    const quote = await client.get('/feeds/whale-alerts')
    const tx = await transfer({ recipient: stack.payTo, amount: 5_000n, nonce: 0n })
    const before = await runLogSoFar()
    const response = await client
      .get('/feeds/whale-alerts')
      .header('payment-signature', paymentHeader(quote.body(), tx.serialize()))
    return { response, txid: tx.txid(), lines: linesOf(await logLinesSince(before), response) }
  }

  test('every line of a paid call carries its request id, feed and transaction', async ({
    client,
    assert,
  }) => {
    const { response, txid, lines } = await pay(client)

    response.assertStatus(200)
    assertEveryLineCarries(assert, lines, { feed: 'whale-alerts', txid })
  })

  test('so does the error a paid call fails with after its broadcast', async ({
    client,
    assert,
  }) => {
    class FailingLedger extends Ledger {
      async post(): Promise<never> {
        throw new Error('the ledger is down')
      }
    }
    const clock = await app.container.make(Clock)
    app.container.swap(Ledger, () => new FailingLedger(db, clock))

    try {
      const { response, txid, lines } = await pay(client)

      response.assertStatus(500)
      const reported = lines.find((line) => Number(line.level) >= 50)
      assert.exists(reported, 'the error is logged')
      assertEveryLineCarries(assert, lines, { feed: 'whale-alerts', txid })
    } finally {
      app.container.restore(Ledger)
    }
  })
})

test.group('Log lines of a withdrawal', (group) => {
  const stack = useWithdrawalStack(group, { blockTimeMs: null })

  test('the request and every transition of a withdrawal carry its id', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, withdrawalWallet } = await providerWithRevenue(client, 5_000_000n)
    const before = await runLogSoFar()

    const response = await client
      .post(`/providers/id/${providerId}/withdraw`)
      .bearerToken(owner.token)
      .json({
        amount_microstx: 2_000_000,
        destination_address: withdrawalWallet,
        idempotency_key: randomUUID(),
      })
    response.assertStatus(201)
    await stack.devnet.mine()
    await stack.confirm()

    const { id } = response.body().withdrawal
    const lines = await logLinesSince(before)
    assertEveryLineCarries(assert, linesOf(lines, response), { withdrawal_id: id })
    const transitions = lines.filter((line) => line.msg === 'withdrawal')
    assert.isAbove(transitions.length, 2)
    for (const line of transitions) assert.equal(line.withdrawal_id, id)
    assert.equal(transitions.at(-1)!.to_status, 'confirmed')
  })
})

test.group('Log lines of a call paid from credit', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('every line carries its request id and feed, and the closing line its credit call', async ({
    client,
    assert,
  }) => {
    const wallet = newWallet()
    await topUp(wallet.address, 100_000n)
    const issued = await client
      .post('/credit/nonce')
      .json({ address: wallet.address, spend_cap_stx: '0.05', max_price_stx: '0.01' })
    const { message } = issued.body()
    const exchanged = await client
      .post('/credit/tokens')
      .json({ message, signature: signMessage(message, wallet.key) })
    exchanged.assertStatus(201)
    const before = await runLogSoFar()

    const response = await client
      .get('/feeds/whale-alerts')
      .header('credit-token', exchanged.body().token)

    response.assertStatus(200)
    const lines = linesOf(await logLinesSince(before), response)
    assertEveryLineCarries(assert, lines, { feed: 'whale-alerts' })
    const call = await db.from('credit_calls').where({ payer: wallet.address }).firstOrFail()
    const closing = lines.find((line) => line.msg === 'request completed')!
    assert.equal(closing.credit_call_id, call.id)
  })
})
