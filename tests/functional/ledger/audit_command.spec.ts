import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { createProviderRow } from '#tests/support/providers'

/** `node ace ledger:audit` as an operator's cron or CI runs it: a real process, its exit status. */
function runAudit(): Promise<{ code: number; output: string }> {
  const connection = app.config.get<{
    port: number
    user: string
    password: string
    database: string
  }>('database.connections.postgres.connection')
  const databaseUrl =
    env.get('DATABASE_URL') ??
    `postgres://${connection.user}:${connection.password}@127.0.0.1:${connection.port}/${connection.database}`
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['ace.js', 'ledger:audit'],
      {
        cwd: app.appRoot.pathname,
        env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0
        resolve({ code, output: `${stdout}${stderr}` })
      }
    )
  })
}

test.group('The ledger:audit command', () => {
  test('exits 1 on a planted wrong balance, 0 once it is put right', async ({ assert }) => {
    const provider = await createProviderRow(`audit-${Date.now().toString(36)}`)
    try {
      await db.from('providers').where('id', provider.id).update({ pending_revenue_microstx: 7 })

      const planted = await runAudit()

      assert.equal(planted.code, 1, planted.output)
      assert.include(
        planted.output,
        `provider ${provider.handle}: cached pending/earned/withdrawn 7/0/0`
      )

      await db.from('providers').where('id', provider.id).update({ pending_revenue_microstx: 0 })
      const sound = await runAudit()

      assert.equal(sound.code, 0, sound.output)
      assert.include(sound.output, 'ledger balanced')
    } finally {
      await db.from('providers').where('id', provider.id).delete()
    }
  }).timeout(60_000)
})
