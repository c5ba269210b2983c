import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { SignInChallenges } from '#auth/sign_in_challenges'
import { refundStatement } from '#credit/refund_terms'
import { creditedWallet, newWallet } from '#tests/support/credit'
import { inGlobalTransaction } from '#tests/support/database'
import { signMessage } from '#tests/support/sign_in'

/** What a stranger trying the refund routes by hand sends: amounts a wallet cannot refund. */
test.group('Refund amounts', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('a refund of nothing is refused when asked for, even by a wallet without credit', async ({
    client,
    assert,
  }) => {
    const empty = newWallet()
    const funded = await creditedWallet(1_000_000n)

    for (const [wallet, amount] of [
      [empty, '0'],
      [empty, '0.000000'],
      [funded, '0'],
    ] as const) {
      const response = await client
        .post('/credit/refunds/nonce')
        .json({ address: wallet.address, amount_stx: amount })

      response.assertStatus(422)
      assert.containsSubset(response.body().error, {
        code: 'validation_failed',
        fields: [{ field: 'amount_stx', rule: 'stxLimit' }],
      })
    }
    const issued = await db.from('auth_challenges').where('purpose', 'credit_refund')
    assert.lengthOf(issued, 0)
  })

  test('a signed refund of nothing is refused as no refund challenge, never a server error', async ({
    client,
    assert,
  }) => {
    // A challenge for 0 STX, as the service issued them before it refused them.
    const wallet = newWallet()
    const challenges = await app.container.make(SignInChallenges)
    const issued = await challenges.issue(wallet.address, {
      purpose: 'credit_refund',
      statement: refundStatement(0n, wallet.address),
    })

    const response = await client
      .post('/credit/refunds')
      .json({ message: issued.message, signature: signMessage(issued.message, wallet.key) })

    response.assertStatus(401)
    response.assertBodyContains({ error: { code: 'challenge_not_found' } })
    assert.lengthOf(await db.from('withdrawals').where('credit_address', wallet.address), 0)
  })

  test('a refund below the minimum names the minimum in STX, as the amount was asked', async ({
    client,
    assert,
  }) => {
    const wallet = await creditedWallet(1_000_000n)

    const response = await client
      .post('/credit/refunds/nonce')
      .json({ address: wallet.address, amount_stx: '0.05' })

    response.assertStatus(422)
    assert.equal(response.body().error.code, 'refund_below_minimum')
    assert.equal(response.body().error.message, 'A refund is at least 0.1 STX, or the whole credit')
  })
})
