import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import { creditBalanceOf } from '#credit/credit_balance'
import env from '#start/env'
import { emptyMarketplaceLater } from '#tests/support/database'
import { runDocScript } from '#tests/support/doc_scripts'
import { pointBuiltinFeedsAtSimulator, withoutSettlementDelays } from '#tests/support/paid_calls'
import { useWithdrawalStack } from '#tests/support/withdrawals'

test.group("docs/credit.md's credit.mjs", (group) => {
  group.setup(async () => {
    const pointed = await pointBuiltinFeedsAtSimulator()
    return () => pointed.restore()
  })
  // The refund goes through the platform wallet's pipeline: its writes commit.
  const stack = useWithdrawalStack(group, { blockTimeMs: 0 })
  group.each.setup(() => emptyMarketplaceLater())
  group.each.setup(() => withoutSettlementDelays(10_000))

  test('tops up with the unmodified x402-stacks, pays two feeds from credit and refunds the rest on the devnet', async ({
    assert,
  }) => {
    const wallet2 = DEVNET_ACCOUNTS.find(({ label }) => label === 'wallet_2')!
    // The README sends its readers to docs/credit.md's credit.mjs.
    const run = await runDocScript(
      'docs/credit.md',
      'credit.mjs',
      {
        PUBLIC_URL: `http://${env.get('HOST')}:${env.get('PORT')}`,
        STACKS_API_URL: stack.devnet.url,
      },
      60_000
    )

    assert.equal(run.code, 0, run.stderr)
    assert.include(run.stdout, 'balance_microstx: 1000000')
    assert.match(run.stdout, /^gas-prediction 200 balance=997000; token_remaining=497000$/m)
    assert.match(run.stdout, /^whale-alerts 200 balance=992000; token_remaining=492000$/m)
    const topUp = await db.from('payments').where('purpose', 'credit_top_up').firstOrFail()
    assert.equal(topUp.payer, wallet2.address)
    assert.equal(topUp.status, 'confirmed')
    const refund = await db
      .from('withdrawals')
      .where('credit_address', wallet2.address)
      .firstOrFail()
    assert.equal(refund.amount_microstx, '992000')
    assert.equal(await creditBalanceOf(db.connection(), wallet2.address), 0n)

    const summary = await stack.confirm()

    assert.equal(summary.confirmed, 1)
    const settled = await db.from('withdrawals').where('id', refund.id).firstOrFail()
    assert.equal(settled.status, 'confirmed')
    assert.equal(settled.destination_address, wallet2.address)
  }).timeout(90_000)
})
