import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import env from '#start/env'
import { runDocScript } from '#tests/support/doc_scripts'
import { usePaidCallStack } from '#tests/support/paid_calls'

test.group("The README's buy.mjs", (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  test('buys a feed from the service at PUBLIC_URL, paying on the node at STACKS_API_URL', async ({
    assert,
  }) => {
    const run = await runDocScript(
      'README.md',
      'buy.mjs',
      {
        PUBLIC_URL: `http://${env.get('HOST')}:${env.get('PORT')}`,
        STACKS_API_URL: stack.devnet.url,
      },
      30_000
    )

    assert.equal(run.code, 0, run.stderr)
    assert.match(run.stdout, /^200 \{/)
    const payment = await db.from('payments').where('purpose', 'feed').firstOrFail()
    const wallet2 = DEVNET_ACCOUNTS.find(({ label }) => label === 'wallet_2')!
    assert.equal(payment.payer, wallet2.address)
    assert.equal(payment.status, 'confirmed')
    assert.include(run.stdout, `txid 0x${payment.txid}`)
  }).timeout(40_000)
})
