import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { PlatformWallet } from '#chain/platform_wallet'
import { SignInChallenges } from '#auth/sign_in_challenges'
import { creditBalanceOf } from '#credit/credit_balance'
import { refundStatement } from '#credit/refund_terms'
import { accounts } from '#ledger/accounts'
import { type Microstx, formatStx } from '#ledger/money'
import { Ledger } from '#ledger/ledger'
import { LedgerAudit } from '#ledger/ledger_audit'
import { creditedWallet, newWallet, signedRefund } from '#tests/support/credit'
import {
  forgetRateLimitCounts,
  setRateLimits,
  trustLoopbackProxy,
} from '#tests/support/rate_limits'
import { signIn, signMessage } from '#tests/support/sign_in'
import { useWithdrawalStack } from '#tests/support/withdrawals'
import { inGlobalTransaction } from '#tests/support/database'

const STX = 1_000_000n

async function creditOf(address: string) {
  return creditBalanceOf(db.connection(), address)
}

async function refundsOf(address: string) {
  return db.from('withdrawals').where('credit_address', address)
}

/** Refunds go through the withdrawal pipeline on the devnet: paid once, or restored. */
test.group('Refunding credit', (group) => {
  const stack = useWithdrawalStack(group, { blockTimeMs: null })

  test('a refund of the rest is sent to the wallet and confirmed; the platform pays the fee', async ({
    client,
    assert,
  }) => {
    const wallet = await creditedWallet(2_500_000n)
    const platform = await app.container.make(PlatformWallet)
    const platformBefore = stack.devnet.balanceOf(platform.address)
    const ledger = await app.container.make(Ledger)
    const feesBefore = await ledger.balanceOf(accounts.networkFees)

    const signed = await signedRefund(client, wallet, '2.5')
    assert.include(signed.message, `Refund 2.5 STX of my Tollbooth credit to ${wallet.address}.`)
    const response = await client.post('/credit/refunds').json(signed)

    response.assertStatus(202)
    const refund = response.body().refund
    assert.containsSubset(refund, {
      status: 'broadcast',
      amount_microstx: 2_500_000,
      amount_stx: '2.5',
      destination_address: wallet.address,
    })
    assert.match(refund.tx_hash, /^0x[0-9a-f]{64}$/)
    assert.equal(await creditOf(wallet.address), 0n)

    await stack.devnet.mine()
    const summary = await stack.confirm()

    assert.equal(summary.confirmed, 1)
    assert.equal(stack.devnet.balanceOf(wallet.address), 2_500_000n)
    const fee = BigInt(refund.fee_microstx)
    assert.equal(stack.devnet.balanceOf(platform.address), platformBefore - 2_500_000n - fee)
    assert.equal(await ledger.balanceOf(accounts.networkFees), feesBefore + fee)
    const postings = await db
      .from('ledger_transactions')
      .where('reference', refund.id)
      .orderBy('kind')
      .select('kind')
    assert.deepEqual(
      postings.map((row) => row.kind),
      ['withdrawal', 'withdrawal_fee', 'withdrawal_payout']
    )
    const { token } = await signIn(client, wallet.key)
    const shown = await client.get(`/credit/refunds/${refund.id}`).bearerToken(token)
    shown.assertStatus(200)
    assert.containsSubset(shown.body().refund, { id: refund.id, status: 'confirmed' })
    const balance = await client.get('/credit/balance').bearerToken(token)
    assert.deepEqual(balance.body(), {
      address: wallet.address,
      balance_microstx: 0,
      balance_stx: '0',
    })
    const statement = await client.get('/credit/statement').bearerToken(token)
    assert.containsSubset(statement.body().lines, [
      {
        kind: 'refund',
        amount_microstx: -2_500_000,
        refund_id: refund.id,
        status: 'confirmed',
        tx_hash: refund.tx_hash,
      },
      { kind: 'top_up', amount_microstx: 2_500_000 },
    ])
  })

  test('a refund the node refuses is failed and the credit restored', async ({
    client,
    assert,
  }) => {
    const wallet = await creditedWallet(3n * STX)
    stack.devnet.faults.failNext(3, 429, '/v2/transactions', { retryAfterSeconds: null })

    const response = await client
      .post('/credit/refunds')
      .json(await signedRefund(client, wallet, '1'))

    response.assertStatus(202)
    assert.containsSubset(response.body().refund, {
      status: 'failed',
      failure_reason: 'the node rate-limited every broadcast',
    })
    assert.equal(await creditOf(wallet.address), 3n * STX)
    assert.equal(stack.devnet.balanceOf(wallet.address), 0n)
    const { token } = await signIn(client, wallet.key)
    const statement = await client.get('/credit/statement').bearerToken(token)
    assert.deepEqual(
      statement
        .body()
        .lines.map((line: { kind: string; amount_microstx: number }) => [
          line.kind,
          line.amount_microstx,
        ]),
      [
        ['refund_reversal', 1_000_000],
        ['refund', -1_000_000],
        ['top_up', 3_000_000],
      ]
    )
  })

  test('a refund aborted on chain is failed, the credit restored and the fee paid by the platform', async ({
    client,
    assert,
  }) => {
    const wallet = await creditedWallet(3n * STX)
    const response = await client
      .post('/credit/refunds')
      .json(await signedRefund(client, wallet, '2'))
    const refund = response.body().refund
    stack.devnet.faults.abort(refund.tx_hash)
    await stack.devnet.mine()

    const summary = await stack.confirm()

    assert.equal(summary.failed, 1)
    assert.equal(await creditOf(wallet.address), 3n * STX)
    assert.equal(stack.devnet.balanceOf(wallet.address), 0n)
    const [row] = await refundsOf(wallet.address)
    assert.equal(row.status, 'failed')
    const fee = await db
      .from('ledger_transactions')
      .where({ kind: 'withdrawal_fee', reference: refund.id })
      .first()
    assert.exists(fee)
  })

  test('the same signed refund sent again, or twice at once, answers the same refund and pays once', async ({
    client,
    assert,
  }) => {
    const wallet = await creditedWallet(5n * STX)
    const signed = await signedRefund(client, wallet, '2')

    const [first, second] = await Promise.all([
      client.post('/credit/refunds').json(signed),
      client.post('/credit/refunds').json(signed),
    ])
    const third = await client.post('/credit/refunds').json(signed)

    assert.sameMembers([first.status(), second.status()], [202, 200])
    third.assertStatus(200)
    const ids = [first, second, third].map((response) => response.body().refund.id)
    assert.equal(new Set(ids).size, 1)
    assert.lengthOf(await refundsOf(wallet.address), 1)
    assert.equal(await creditOf(wallet.address), 3n * STX)
    await stack.devnet.mine()
    await stack.confirm()
    assert.equal(stack.devnet.balanceOf(wallet.address), 2n * STX)
  })

  test('a retry must carry the wallet signature: another signature of the message is refused', async ({
    client,
  }) => {
    const wallet = await creditedWallet(5n * STX)
    const signed = await signedRefund(client, wallet, '2')
    const made = await client.post('/credit/refunds').json(signed)

    const forged = await client
      .post('/credit/refunds')
      .json({ ...signed, signature: signMessage(signed.message, newWallet().key) })

    made.assertStatus(202)
    forged.assertStatus(401)
    forged.assertBodyContains({ error: { code: 'signature_invalid' } })
  })

  test('a refund above the balance is refused with nothing written; the wallet can then refund less', async ({
    client,
    assert,
  }) => {
    const wallet = await creditedWallet(1n * STX)

    const response = await client
      .post('/credit/refunds')
      .json(await signedRefund(client, wallet, '1.000001'))

    response.assertStatus(422)
    response.assertBodyContains({ error: { code: 'refund_above_credit' } })
    assert.include(response.body().error.message, '(1 STX)')
    assert.lengthOf(await refundsOf(wallet.address), 0)
    assert.equal(await creditOf(wallet.address), 1n * STX)
    const unused = await db
      .from('auth_challenges')
      .where({ wallet_address: wallet.address, purpose: 'credit_refund' })
      .whereNull('used_at')
    assert.lengthOf(unused, 1)

    const smaller = await client
      .post('/credit/refunds')
      .json(await signedRefund(client, wallet, '1'))
    smaller.assertStatus(202)
  })

  test('a wallet without credit cannot refund', async ({ client, assert }) => {
    const wallet = newWallet()

    const response = await client
      .post('/credit/refunds')
      .json(await signedRefund(client, wallet, '1'))

    response.assertStatus(422)
    response.assertBodyContains({ error: { code: 'refund_above_credit' } })
    assert.lengthOf(await refundsOf(wallet.address), 0)
    const accountRows = await db.from('ledger_accounts').where('wallet_address', wallet.address)
    assert.lengthOf(accountRows, 0)
  })

  /**
   * The two answers to a refund of `amount` µSTX: asked for, and signed on a
   * challenge issued directly (as one issued before the minimum rose).
   */
  async function refundAskedAndSigned(
    client: ApiClient,
    wallet: { address: string; key: string },
    amount: Microstx
  ) {
    const asked = await client
      .post('/credit/refunds/nonce')
      .json({ address: wallet.address, amount_stx: formatStx(amount) })
    const challenges = await app.container.make(SignInChallenges)
    const issued = await challenges.issue(wallet.address, {
      purpose: 'credit_refund',
      statement: refundStatement(amount, wallet.address),
    })
    const signed = await client
      .post('/credit/refunds')
      .json({ message: issued.message, signature: signMessage(issued.message, wallet.key) })
    return [asked, signed]
  }

  test('a refund below the minimum is refused, asked for or signed', async ({ client, assert }) => {
    const wallet = await creditedWallet(1n * STX)

    // A challenge issued before the minimum rose is refused when it comes back.
    const [asked, signed] = await refundAskedAndSigned(client, wallet, 9_999n)

    for (const response of [asked, signed]) {
      response.assertStatus(422)
      response.assertBodyContains({ error: { code: 'refund_below_minimum' } })
    }
    assert.lengthOf(await refundsOf(wallet.address), 0)
    assert.equal(await creditOf(wallet.address), 1n * STX)
  })

  test('a top-up cannot be split into refunds below the minimum; what is left below it is refunded whole', async ({
    client,
    assert,
  }) => {
    // Ten refunds of 0.01 STX from a 0.1 STX top-up would make the platform pay ten network fees.
    const wallet = await creditedWallet(100_000n)
    const [asked, signed] = await refundAskedAndSigned(client, wallet, 10_000n)
    for (const response of [asked, signed]) {
      response.assertStatus(422)
      response.assertBodyContains({ error: { code: 'refund_below_minimum' } })
    }
    assert.lengthOf(await refundsOf(wallet.address), 0)
    assert.equal(await creditOf(wallet.address), 100_000n)

    const rest = await creditedWallet(60_000n)
    const whole = await client
      .post('/credit/refunds')
      .json(await signedRefund(client, rest, '0.06'))
    whole.assertStatus(202)
    assert.equal(await creditOf(rest.address), 0n)
  })

  test('a message signed by one wallet cannot refund another wallet or pay to it', async ({
    client,
    assert,
  }) => {
    const victim = await creditedWallet(5n * STX)
    const attacker = await creditedWallet(5n * STX)

    // The attacker signs a challenge issued for the victim's credit.
    const victimsChallenge = await signedRefund(client, victim, '5', attacker.key)
    const signedForVictim = await client.post('/credit/refunds').json(victimsChallenge)
    // The attacker's own challenge, rewritten to name the victim as destination.
    const own = await signedRefund(client, attacker, '5')
    const rewritten = own.message.replace(`to ${attacker.address}.`, `to ${victim.address}.`)
    const redirected = await client
      .post('/credit/refunds')
      .json({ message: rewritten, signature: signMessage(rewritten, attacker.key) })
    const bothLines = rewritten.replace(`\n${attacker.address}\n`, `\n${victim.address}\n`)
    const impersonated = await client
      .post('/credit/refunds')
      .json({ message: bothLines, signature: signMessage(bothLines, attacker.key) })

    signedForVictim.assertStatus(401)
    signedForVictim.assertBodyContains({ error: { code: 'signature_invalid' } })
    for (const response of [redirected, impersonated]) {
      response.assertStatus(401)
      response.assertBodyContains({ error: { code: 'challenge_not_found' } })
    }
    assert.lengthOf(await db.from('withdrawals').whereNotNull('credit_address'), 0)
    assert.equal(await creditOf(victim.address), 5n * STX)
    assert.equal(await creditOf(attacker.address), 5n * STX)
  })

  test("a refund is shown to its wallet's session only", async ({ client }) => {
    const wallet = await creditedWallet(2n * STX)
    const response = await client
      .post('/credit/refunds')
      .json(await signedRefund(client, wallet, '1'))
    const { id } = response.body().refund
    const other = await signIn(client, newWallet().key)

    const anonymous = await client.get(`/credit/refunds/${id}`)
    const someoneElse = await client.get(`/credit/refunds/${id}`).bearerToken(other.token)

    anonymous.assertStatus(401)
    someoneElse.assertStatus(404)
    someoneElse.assertBodyContains({ error: { code: 'refund_not_found' } })
  })
})

test.group('Refund requests are rate limited', (group) => {
  let restore: Array<() => void> = []
  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    await forgetRateLimitCounts()
    restore = []
    return () => restore.forEach((undo) => undo())
  })

  const askRefund = (client: ApiClient, address: string, clientAddress = '203.0.113.50') =>
    client
      .post('/credit/refunds/nonce')
      .header('x-forwarded-for', clientAddress)
      .json({ address, amount_stx: '1' })

  test("per wallet, only the wallet's signed refunds count: others naming it do not block it", async ({
    client,
  }) => {
    restore.push(setRateLimits({ refunds: 2 }), trustLoopbackProxy())
    const wallet = await creditedWallet(5n * STX)
    const someoneElse = newWallet()

    // Challenges naming the wallet asked from several addresses, and one signed by another key.
    for (const clientAddress of ['203.0.113.51', '203.0.113.52', '203.0.113.53']) {
      const asked = await askRefund(client, wallet.address, clientAddress)
      asked.assertStatus(200)
    }
    const forged = await client
      .post('/credit/refunds')
      .header('x-forwarded-for', '203.0.113.54')
      .json(await signedRefund(client, wallet, '1', someoneElse.key))
    forged.assertStatus(401)

    const refunds = []
    for (let index = 0; index < 3; index++) {
      refunds.push(
        await client.post('/credit/refunds').json(await signedRefund(client, wallet, '1'))
      )
    }

    refunds[0].assertStatus(202)
    refunds[1].assertStatus(202)
    refunds[2].assertStatus(429)
    refunds[2].assertBodyContains({ error: { code: 'too_many_requests' } })
  })

  test('per client address: fresh wallets from one address are refused past its limit', async ({
    client,
  }) => {
    restore.push(setRateLimits({ refundsPerAddress: 2 }), trustLoopbackProxy())

    await askRefund(client, newWallet().address)
    await askRefund(client, newWallet().address)
    const refused = await askRefund(client, newWallet().address)
    const otherAddress = await askRefund(client, newWallet().address, '203.0.113.60')

    refused.assertStatus(429)
    otherAddress.assertStatus(200)
  })
})

test.group('The audit of refunds', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test("ledger:audit names a refund that debited another wallet's credit than its own", async ({
    assert,
  }) => {
    const wallet = newWallet()
    const other = await creditedWallet(2n * STX)
    const ledger = await app.container.make(Ledger)
    const [refund] = await db
      .table('withdrawals')
      .insert({
        credit_address: wallet.address,
        idempotency_key: randomUUID(),
        amount_microstx: 1_000_000,
        destination_address: wallet.address,
        memo: 'tb-r-audit',
      })
      .returning('id')
    await db.transaction((trx) =>
      ledger.debitForWithdrawal(trx, {
        id: refund.id,
        source: accounts.buyerCredit(other.address),
        amount: 1n * STX,
      })
    )

    const audit = await app.container.make(LedgerAudit)
    const { discrepancies } = await audit.run()

    assert.lengthOf(discrepancies, 1)
    assert.include(discrepancies[0], `withdrawal ${refund.id} (pending, 1000000 µSTX, fee 0)`)
    assert.include(discrepancies[0], `of credit:${wallet.address}`)
    assert.include(discrepancies[0], `from credit:${other.address}`)
  })
})
