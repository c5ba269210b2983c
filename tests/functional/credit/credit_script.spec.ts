import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import { creditBalanceOf } from '#credit/credit_balance'
import env from '#start/env'
import { emptyMarketplaceLater } from '#tests/support/database'
import { pointBuiltinFeedsAtSimulator, withoutSettlementDelays } from '#tests/support/paid_calls'
import { useWithdrawalStack } from '#tests/support/withdrawals'

/** The `credit.mjs` of docs/credit.md (the README sends its readers there), as a reader copies it. */
async function creditScript() {
  const guide = await readFile(app.makePath('docs/credit.md'), 'utf8')
  const script = /`credit\.mjs`[\s\S]*?```js\n([\s\S]*?)```/.exec(guide)?.[1]
  if (!script) throw new Error('docs/credit.md no longer shows credit.mjs')
  return script
}

/** Runs a script saved in the project (where its imports resolve), as `node credit.mjs` does. */
function runScript(file: string, scriptEnv: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [file],
      { cwd: app.appRoot.pathname, env: { ...process.env, ...scriptEnv }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code
        resolve({ code: error ? (typeof code === 'number' ? code : -1) : 0, stdout, stderr })
      }
    )
  })
}

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
    const dir = app.tmpPath('readme-scripts')
    const file = `${dir}/credit-${randomUUID()}.mjs`
    await mkdir(dir, { recursive: true })
    await writeFile(file, await creditScript())
    const wallet2 = DEVNET_ACCOUNTS.find(({ label }) => label === 'wallet_2')!
    try {
      const run = await runScript(file, {
        PUBLIC_URL: `http://${env.get('HOST')}:${env.get('PORT')}`,
        STACKS_API_URL: stack.devnet.url,
      })

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
    } finally {
      await rm(file, { force: true })
    }
  }).timeout(90_000)
})
