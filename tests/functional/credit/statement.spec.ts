import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { CreditTokens } from '#credit/credit_tokens'
import { useManualClock } from '#tests/support/clock'
import { newWallet, topUp } from '#tests/support/credit'
import { creditCall } from '#tests/support/credit_calls'
import { signIn } from '#tests/support/sign_in'
import { inGlobalTransaction } from '#tests/support/database'

/** A credit token of the wallet's, issued as POST /credit/tokens issues one, expiring at `expiresAt`. */
async function creditToken(address: string, expiresAt: Date) {
  const tokens = await app.container.make(CreditTokens)
  const { token } = await tokens.issue(db.connection(), {
    address,
    spendCap: 1000n,
    maxPrice: 1000n,
    signInNonce: randomBytes(16).toString('hex'),
    expiresAt,
  })
  return token
}

test.group("A wallet's balance and statement", (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('the statement lists top-ups and calls newest first, a page at a time, and adds up to the balance', async ({
    client,
    assert,
  }) => {
    const wallet = newWallet()
    const first = await topUp(wallet.address, 1_000_000n)
    const call = await creditCall(wallet.address, 3_000n)
    const second = await topUp(wallet.address, 500_000n)
    const { token } = await signIn(client, wallet.key)

    const page1 = await client.get('/credit/statement').qs({ limit: 2 }).bearerToken(token)
    const page2 = await client
      .get('/credit/statement')
      .qs({ limit: 2, cursor: page1.body().pagination.cursor })
      .bearerToken(token)

    page1.assertStatus(200)
    assert.equal(page1.header('cache-control'), 'no-store')
    assert.containsSubset(page1.body(), {
      address: wallet.address,
      balance_microstx: 1_497_000,
      balance_stx: '1.497',
    })
    const lines = [...page1.body().lines, ...page2.body().lines]
    assert.containsSubset(lines, [
      { kind: 'top_up', amount_microstx: 500_000, amount_stx: '0.5', tx_hash: `0x${second}` },
      { kind: 'call', amount_microstx: -3_000, call_id: call, resource: '/feeds/btc-price' },
      { kind: 'top_up', amount_microstx: 1_000_000, tx_hash: `0x${first}` },
    ])
    assert.deepEqual(
      lines.map((line: { kind: string }) => line.kind),
      ['top_up', 'call', 'top_up']
    )
    assert.isNull(page2.body().pagination.cursor)
    const total = lines.reduce(
      (sum: bigint, line: { amount_microstx: number }) => sum + BigInt(line.amount_microstx),
      0n
    )
    assert.equal(total, 1_497_000n)
  })

  test('a page says the size it was asked for, or the default, however many lines it holds', async ({
    client,
    assert,
  }) => {
    const wallet = newWallet()
    await topUp(wallet.address, 1_000_000n)
    await creditCall(wallet.address, 3_000n)
    const { token } = await signIn(client, wallet.key)

    const asked = await client.get('/credit/statement').qs({ limit: 5 }).bearerToken(token)
    const unasked = await client.get('/credit/statement').bearerToken(token)

    assert.lengthOf(asked.body().lines, 2)
    assert.deepEqual(asked.body().pagination, { limit: 5, cursor: null })
    assert.deepEqual(unasked.body().pagination, { limit: 20, cursor: null })
  })

  test("a session sees only its own wallet's credit; no session, nothing", async ({
    client,
    assert,
  }) => {
    const rich = newWallet()
    await topUp(rich.address, 2_000_000n)
    const other = newWallet()
    const { token } = await signIn(client, other.key)

    const balance = await client.get('/credit/balance').bearerToken(token)
    const statement = await client.get('/credit/statement').bearerToken(token)
    const anonymous = await client.get('/credit/balance')

    assert.deepEqual(balance.body(), {
      address: other.address,
      balance_microstx: 0,
      balance_stx: '0',
    })
    assert.deepEqual(statement.body().lines, [])
    anonymous.assertStatus(401)
    anonymous.assertBodyContains({ error: { code: 'unauthenticated' } })
  })

  test('a credit token reads its own wallet’s balance until it expires by the clock', async ({
    client,
    assert,
  }) => {
    const wallet = newWallet()
    await topUp(wallet.address, 750_000n)
    const { clock, restore } = await useManualClock()
    try {
      const token = await creditToken(wallet.address, new Date(clock.now() + 60_000))

      const live = await client.get('/credit/balance').header('credit-token', token)
      clock.advance(60_000)
      const expired = await client.get('/credit/balance').header('credit-token', token)
      const unknown = await client.get('/credit/balance').header('credit-token', 'not-a-token')

      live.assertStatus(200)
      assert.containsSubset(live.body(), { address: wallet.address, balance_microstx: 750_000 })
      for (const refused of [expired, unknown]) {
        refused.assertStatus(401)
        refused.assertBodyContains({ error: { code: 'credit_token_invalid' } })
      }
    } finally {
      restore()
    }
  })

  test('a cursor the statement did not give is refused', async ({ client }) => {
    const { token } = await signIn(client, newWallet().key)
    // Not a cursor; one past the largest bigint entry id (2^63); the largest 19-digit number.
    const cursors = [
      'bm90LWEtY3Vyc29y',
      Buffer.from('e9223372036854775808').toString('base64url'),
      Buffer.from('e9999999999999999999').toString('base64url'),
    ]

    for (const cursor of cursors) {
      const response = await client.get('/credit/statement').qs({ cursor }).bearerToken(token)
      response.assertStatus(422)
      response.assertBodyContains({ error: { code: 'validation_failed' } })
    }
    const largest = Buffer.from('e9223372036854775807').toString('base64url')
    const last = await client.get('/credit/statement').qs({ cursor: largest }).bearerToken(token)
    last.assertStatus(200)
  })
})
