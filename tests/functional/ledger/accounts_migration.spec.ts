import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { MigrationRunner } from '@adonisjs/lucid/migration'
import db from '@adonisjs/lucid/services/db'
import { accounts } from '#ledger/accounts'
import { emptyMarketplace } from '#tests/support/database'
import { createProviderRow } from '#tests/support/providers'

/** Runs the migrations up, or the last `step` of them down; fails on the first migration error. */
async function migrate(options: { direction: 'up' } | { direction: 'down'; step: number }) {
  const runner = new MigrationRunner(db, app, options)
  await runner.run()
  if (runner.error) throw runner.error
}

const TYPED_ACCOUNTS = '1732233600055_create_ledger_accounts'

/**
 * How many migrations a rollback by steps undoes to undo `migration`: it and
 * every one applied after it (a rollback goes down the ids).
 */
async function migratedSince(migration: string) {
  const { rows } = await db.rawQuery(
    `SELECT count(*)::int AS since FROM adonis_schema
      WHERE id >= (SELECT id FROM adonis_schema WHERE name LIKE '%/' || ?)`,
    [migration]
  )
  if (rows[0].since === 0) throw new Error(`${migration} is not applied`)
  return rows[0].since as number
}

/**
 * The typed accounts' migration on a database that already holds entries on
 * every account (a deployment upgraded to it). Everything the suite migrated
 * after it is rolled back with it before each test and run again after; the
 * schema is whole again afterwards, whatever the test's outcome.
 */
test.group('Migrating to typed ledger accounts', (group) => {
  group.each.setup(async () => {
    await emptyMarketplace()
    await migrate({ direction: 'down', step: await migratedSince(TYPED_ACCOUNTS) })
    return async () => {
      // Whatever a test left would stop the schema coming back up.
      await db.rawQuery('TRUNCATE ledger_entries, ledger_transactions')
      await migrate({ direction: 'up' })
      await emptyMarketplace()
    }
  })

  test('names the accounts it does not know instead of migrating them', async ({ assert }) => {
    const [{ id }] = await db
      .table('ledger_transactions')
      .insert({ kind: 'payment', reference: 'c'.repeat(64) })
      .returning('id')
    await db.table('ledger_entries').multiInsert([
      { transaction_id: id, account: accounts.platformWallet.name, amount_microstx: 10 },
      { transaction_id: id, account: 'platform:mystery', amount_microstx: -10 },
    ])

    await assert.rejects(
      () => migrate({ direction: 'up' }),
      /ledger entries on unknown accounts: platform:mystery/
    )
  }).timeout(60_000)

  test('creates every account posted to, with its kind and the totals it keeps', async ({
    assert,
  }) => {
    const provider = await createProviderRow()
    const pending = accounts.providerPending(provider.id)
    const postings: [string, string, [string, number][]][] = [
      [
        'payment',
        'a'.repeat(64),
        [
          [accounts.platformWallet.name, 1000],
          [pending.name, -970],
          [accounts.platformFees.name, -30],
        ],
      ],
      [
        'payment',
        'b'.repeat(64),
        [
          [accounts.platformWallet.name, 500],
          [accounts.platformRevenue.name, -500],
        ],
      ],
      [
        'withdrawal',
        'w1',
        [
          [pending.name, 400],
          [accounts.payoutsInFlight.name, -400],
        ],
      ],
      [
        'withdrawal_payout',
        'w1',
        [
          [accounts.payoutsInFlight.name, 400],
          [accounts.platformWallet.name, -400],
        ],
      ],
      [
        'withdrawal_fee',
        'w1',
        [
          [accounts.networkFees.name, 180],
          [accounts.platformWallet.name, -180],
        ],
      ],
      [
        'withdrawal',
        'w2',
        [
          [pending.name, 200],
          [accounts.payoutsInFlight.name, -200],
        ],
      ],
    ]
    await db.transaction(async (trx) => {
      for (const [kind, reference, entries] of postings) {
        const [{ id }] = await trx
          .table('ledger_transactions')
          .insert({ kind, reference })
          .returning('id')
        await trx.table('ledger_entries').multiInsert(
          entries.map(([account, amount]) => ({
            transaction_id: id,
            account,
            amount_microstx: amount,
          }))
        )
      }
    })

    await migrate({ direction: 'up' })

    const rows = await db
      .from('ledger_accounts')
      .select(
        'name',
        'kind',
        'provider_id',
        'may_go_negative',
        'debits_microstx',
        'credits_microstx'
      )
      .orderByRaw('name COLLATE "C"')
    const account = (
      { name, kind, providerId, mayGoNegative }: typeof pending,
      debits = 0,
      credits = 0
    ) => ({
      name,
      kind,
      provider_id: providerId,
      may_go_negative: mayGoNegative,
      debits_microstx: String(debits),
      credits_microstx: String(credits),
    })
    assert.deepEqual(rows, [
      account(accounts.platformFees),
      account(accounts.networkFees),
      account(accounts.payoutsInFlight, 400, 600),
      account(accounts.platformRevenue),
      account(accounts.platformWallet),
      account(pending, 600, 970),
    ])
  }).timeout(60_000)
})
