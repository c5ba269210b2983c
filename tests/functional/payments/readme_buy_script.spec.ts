import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import env from '#start/env'
import { usePaidCallStack } from '#tests/support/paid_calls'

/** The README's `buy.mjs`, as a reader copies it. */
async function readmeBuyScript() {
  const readme = await readFile(app.makePath('README.md'), 'utf8')
  const script = /`buy\.mjs`[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1]
  if (!script) throw new Error('the README no longer shows buy.mjs')
  return script
}

/** Runs a script saved in the project (where its imports resolve), as `node buy.mjs` does. */
function runScript(file: string, scriptEnv: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [file],
      { cwd: app.appRoot.pathname, env: { ...process.env, ...scriptEnv }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code
        resolve({ code: error ? (typeof code === 'number' ? code : -1) : 0, stdout, stderr })
      }
    )
  })
}

test.group("The README's buy.mjs", (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  test('buys a feed from the service at PUBLIC_URL, paying on the node at STACKS_API_URL', async ({
    assert,
  }) => {
    const dir = app.tmpPath('readme-scripts')
    const file = `${dir}/buy-${randomUUID()}.mjs`
    await mkdir(dir, { recursive: true })
    await writeFile(file, await readmeBuyScript())
    try {
      const run = await runScript(file, {
        PUBLIC_URL: `http://${env.get('HOST')}:${env.get('PORT')}`,
        STACKS_API_URL: stack.devnet.url,
      })

      assert.equal(run.code, 0, run.stderr)
      assert.match(run.stdout, /^200 \{/)
      const payment = await db.from('payments').where('purpose', 'feed').firstOrFail()
      const wallet2 = DEVNET_ACCOUNTS.find(({ label }) => label === 'wallet_2')!
      assert.equal(payment.payer, wallet2.address)
      assert.equal(payment.status, 'confirmed')
      assert.include(run.stdout, `txid 0x${payment.txid}`)
    } finally {
      await rm(file, { force: true })
    }
  }).timeout(40_000)
})
