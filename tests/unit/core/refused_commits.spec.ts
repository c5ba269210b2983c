import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

/** Writes a row a deferred check refuses at COMMIT: a duplicate in a table dropped with the transaction. */
async function writeWhatCommitRefuses(trx: TransactionClientContract) {
  await trx.rawQuery(
    `CREATE TEMPORARY TABLE refused_at_commit (id int UNIQUE DEFERRABLE INITIALLY DEFERRED)
       ON COMMIT DROP`
  )
  await trx.rawQuery('INSERT INTO refused_at_commit VALUES (1), (1)')
}

test.group('A COMMIT PostgreSQL refuses', () => {
  test('fails the commit of a managed transaction with its error', async ({ assert }) => {
    const trx = await db.transaction()
    await writeWhatCommitRefuses(trx)

    const error = await trx.commit().then(
      () => null,
      (refused: { code?: string }) => refused
    )

    assert.equal(error?.code, '23505')
    assert.isTrue(trx.isCompleted)
    await trx.rollback()
  })

  test('fails db.transaction() with its error, not a rollback error', async ({ assert }) => {
    const outcome = db.transaction(async (trx) => {
      await writeWhatCommitRefuses(trx)
      return 'committed'
    })

    await assert.rejects(() => outcome, /refused_at_commit_id_key/)
  })

  test('fails the commit of a transaction a failed statement aborted', async ({ assert }) => {
    const trx = await db.transaction()
    await trx.rawQuery('SELECT 1 / 0').catch(() => null)

    await assert.rejects(() => trx.commit(), /a statement of the transaction had failed/)
  })
})
