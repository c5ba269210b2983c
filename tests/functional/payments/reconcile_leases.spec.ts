import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { PaymentsConfig } from '#payments/define_config'
import { PaymentLifecycle } from '#payments/payment_lifecycle'
import { ReconcilePayments } from '#payments/reconcile_payments'
import PaymentsReconcile from '../../../commands/payments_reconcile.js'
import { pointAppAtDevnet } from '#tests/support/chain'
import { type ManualClock, useManualClock } from '#tests/support/clock'

/** Unknown to the chain but far from released: a run leaves each row pending, unchanged. */
const OPTIONS = { graceSeconds: 30, releaseAfterSeconds: 86_400, batchSize: 10 }
const NOTHING = { confirmed: 0, failed: 0, released: 0, pending: 0, unsettled: 0 }

function txid(n: number) {
  return `c0${n.toString(16).padStart(62, '0')}`
}

/**
 * payments:reconcile leases rows by the injected Clock (several instances run
 * side by side): outside the per-test global transaction, so two runs are two
 * real connections racing for the same rows.
 */
test.group('payments:reconcile leases', (group) => {
  let clock: ManualClock
  group.each.setup(async () => {
    const manual = await useManualClock()
    clock = manual.clock
    const chain = await pointAppAtDevnet()
    return async () => {
      await db.from('payments').where('txid', 'like', 'c0%').delete()
      await chain.cleanup()
      manual.restore()
    }
  })

  /** Broadcast payments of an hour ago by the clock, their requests long gone. */
  async function stalePayments(count: number) {
    const feed = await db.from('feeds').where('slug', 'whale-alerts').first()
    const anHourAgo = new Date(clock.now() - 3_600_000)
    await db.table('payments').multiInsert(
      Array.from({ length: count }, (_, n) => ({
        txid: txid(n),
        feed_id: feed.id,
        resource: 'GET /feeds/whale-alerts',
        payer: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
        amount_microstx: 5000,
        nonce: n,
        network: 'stacks:2147483648',
        raw_tx: Buffer.from([1]),
        status: 'broadcast',
        claimed_at: anHourAgo,
        updated_at: anHourAgo,
      }))
    )
  }

  test('a row a stopped run holds is not taken before its lease ends by the clock, and is after', async ({
    assert,
  }) => {
    await stalePayments(1)
    const config = await app.container.make(PaymentsConfig)
    const { leaseMs } = config.reconcile
    const lifecycle = await app.container.make(PaymentLifecycle)
    const reconcile = await app.container.make(ReconcilePayments)

    // A run that took the row and stopped (its process died): its lease is never ended.
    const stopped = await lifecycle.leaseUnsettled({
      ...OPTIONS,
      droppedRecheckSeconds: 30,
      leaseMs,
    })
    clock.advance(leaseMs - 1)
    const whileHeld = await reconcile.run(OPTIONS)
    clock.advance(1)
    const once = await reconcile.run(OPTIONS)

    assert.isAbove(leaseMs, 60_000, 'minutes, far beyond clock skew between instances')
    assert.lengthOf(stopped.rows, 1)
    assert.deepEqual(whileHeld, NOTHING)
    assert.deepEqual(once, { ...NOTHING, pending: 1 })
  })

  test('two runs at once never both take a row', async ({ assert }) => {
    await stalePayments(6)
    const lifecycle = await app.container.make(PaymentLifecycle)
    const reconcile = await app.container.make(ReconcilePayments)
    const lease = { ...OPTIONS, droppedRecheckSeconds: 30, leaseMs: 300_000 }

    const [first, second] = await Promise.all([
      lifecycle.leaseUnsettled(lease),
      lifecycle.leaseUnsettled(lease),
    ])
    await Promise.all([first.end(), second.end()])
    clock.advance(60_000)
    const runs = await Promise.all([reconcile.run(OPTIONS), reconcile.run(OPTIONS)])

    const taken = [...first.rows, ...second.rows].map((row) => row.txid)
    assert.sameMembers(taken, [0, 1, 2, 3, 4, 5].map(txid))
    assert.equal(runs[0].pending + runs[1].pending, 6)
  })

  test('a row the run cannot settle is reported and does not hold up the rows after it', async ({
    assert,
  }) => {
    await stalePayments(3)
    // The oldest row's payer is no address: the node refuses to tell its nonces.
    await db.from('payments').where('txid', txid(0)).update({ payer: 'not-an-address' })
    const reconcile = await app.container.make(ReconcilePayments)

    const run = await reconcile.run({ ...OPTIONS, releaseAfterSeconds: 60 })

    assert.deepEqual(run, { ...NOTHING, pending: 2, unsettled: 1 })
    const rows = await db.from('payments').whereIn('txid', [1, 2].map(txid)).select('dropped_at')
    assert.isTrue(
      rows.every((row) => row.dropped_at !== null),
      'the rows after it were settled'
    )
  })

  test('node ace payments:reconcile exits 1 when it left a row it could not settle, 0 otherwise', async ({
    cleanup,
  }) => {
    const ace = await app.container.make('ace')
    ace.ui.switchMode('raw')
    cleanup(() => ace.ui.switchMode('normal'))
    const runCommand = async () => {
      const command = await ace.create(PaymentsReconcile, [])
      await command.exec()
      return command
    }
    await stalePayments(2)

    const settled = await runCommand()
    await db.from('payments').where('txid', txid(0)).update({ payer: 'not-an-address' })
    clock.advance(3_600_000)
    const unsettled = await runCommand()

    settled.assertSucceeded()
    settled.assertLogMatches(/2 still pending, 0 not settled now/)
    unsettled.assertFailed()
    unsettled.assertLogMatches(/1 not settled now/)
  })
})
