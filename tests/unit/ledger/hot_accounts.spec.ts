import { setTimeout as wait } from 'node:timers/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Ledger } from '#ledger/ledger'
import { emptyMarketplace } from '#tests/support/database'
import { createProviderRow } from '#tests/support/providers'

/**
 * The ledger's hot accounts (docs/scaling.md#the-ledgers-hot-accounts): every
 * payment credits the platform's own accounts, which keep no totals, so a
 * payment inserts entries there and locks no platform row. What a payment
 * does lock is its provider (the cached balance, the pending account's
 * totals): payments to one provider take turns, payments to two do not.
 */
test.group('Concurrent payments and the ledger’s locks', (group) => {
  group.each.teardown(() => emptyMarketplace())

  async function services() {
    return {
      db: (await app.container.make('lucid.db')) as Database,
      ledger: await app.container.make(Ledger),
    }
  }

  /** Posts a 5 000 µSTX payment to `providerId` in `trx`, left open. */
  async function payIn(trx: TransactionClientContract, providerId: string, reference: string) {
    const { ledger } = await services()
    await ledger.post(trx, {
      kind: 'payment',
      reference,
      entries: ledger.paymentEntries({ amount: 5_000n, providerId }),
    })
  }

  /** The backends `pid` waits for, asked until it waits for one (or 50 × 20 ms). */
  async function blockersOf(db: Database, pid: number) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const { rows } = await db.rawQuery('SELECT pg_blocking_pids(?) AS pids', [pid])
      if (rows[0].pids.length > 0) return rows[0].pids as number[]
      await wait(20)
    }
    return []
  }

  test('payments to two providers post at once: no platform account row is locked', async ({
    assert,
  }) => {
    const { db } = await services()
    const one = await createProviderRow()
    const two = await createProviderRow()
    // Their accounts opened first, so only the payments' own writes are compared.
    await db.transaction((trx) => payIn(trx, one.id, 'opening-one'))
    await db.transaction((trx) => payIn(trx, two.id, 'opening-two'))

    const first = await db.transaction()
    const second = await db.transaction()
    try {
      await payIn(first, one.id, 'first')
      // Would wait for `first` to end if both updated a shared row: it completes while `first` is open.
      await payIn(second, two.id, 'second')
      await second.commit()
      await first.commit()
    } finally {
      if (!second.isCompleted) await second.rollback()
      if (!first.isCompleted) await first.rollback()
    }

    const platformRows = await db
      .from('ledger_accounts')
      .where('name', 'like', 'platform:%')
      .select('name', 'debits_microstx', 'credits_microstx')
    assert.isNotEmpty(platformRows)
    for (const row of platformRows) {
      assert.equal(BigInt(row.debits_microstx), 0n, `${row.name} keeps no debit total`)
      assert.equal(BigInt(row.credits_microstx), 0n, `${row.name} keeps no credit total`)
    }
  })

  test('payments to one provider take turns on that provider’s row', async ({ assert }) => {
    const { db } = await services()
    const provider = await createProviderRow()
    await db.transaction((trx) => payIn(trx, provider.id, 'opening'))

    const first = await db.transaction()
    const second = await db.transaction()
    try {
      await payIn(first, provider.id, 'first')
      const { rows } = await first.rawQuery('SELECT pg_backend_pid() AS pid')
      const { rows: secondRows } = await second.rawQuery('SELECT pg_backend_pid() AS pid')
      const waiting = payIn(second, provider.id, 'second')

      assert.deepEqual(await blockersOf(db, secondRows[0].pid), [rows[0].pid])
      await first.commit()
      await waiting
      await second.commit()
    } finally {
      if (!second.isCompleted) await second.rollback()
      if (!first.isCompleted) await first.rollback()
    }
  })
})
