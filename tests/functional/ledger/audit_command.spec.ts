import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { runAce } from '#tests/support/ace'
import { createProviderRow } from '#tests/support/providers'

/** `node ace ledger:audit` as an operator's cron or CI runs it: a real process, its exit status. */
const runAudit = () => runAce(['ledger:audit'])

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
