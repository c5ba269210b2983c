import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import { useManualClock } from '#tests/support/clock'
import { providerWithRevenue, useWithdrawalStack } from '#tests/support/withdrawals'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import { WithdrawalLifecycle } from '#withdrawals/withdrawal_lifecycle'

const STX = 1_000_000n

/**
 * withdrawals:confirm leases rows by the injected Clock, through
 * WithdrawalLifecycle, as payments:reconcile does (several instances run side
 * by side); real connections race for the rows.
 */
test.group('withdrawals:confirm leases', (group) => {
  const stack = useWithdrawalStack(group, { blockTimeMs: null })

  /** Signed withdrawals the node never took (5xx): each run finding one sends it again. */
  async function unsent(client: ApiClient, count: number) {
    const seller = await providerWithRevenue(client, 50n * STX)
    for (let n = 0; n < count; n++) {
      stack.devnet.faults.failNext(3, 503, '/v2/transactions')
      const response = await client
        .post(`/providers/id/${seller.providerId}/withdraw`)
        .bearerToken(seller.owner.token)
        .json({
          amount_microstx: 1_000_000,
          destination_address: seller.withdrawalWallet,
          idempotency_key: randomUUID(),
        })
      response.assertBodyContains({ withdrawal: { status: 'pending' } })
    }
  }

  /** From now on the clock is moved by hand, from the wall-clock time the rows were written at. */
  async function manualClockFromNow() {
    const manual = await useManualClock()
    manual.clock.advance(Date.now() - manual.clock.now())
    return manual
  }

  test('a row a stopped run holds is not taken before its lease ends by the clock, and is after', async ({
    client,
    assert,
  }) => {
    await unsent(client, 1)
    const { clock, restore } = await manualClockFromNow()
    try {
      const config = await app.container.make(WithdrawalsConfig)
      const { graceSeconds, batchSize, leaseMs } = config.confirm
      const lifecycle = await app.container.make(WithdrawalLifecycle)

      // A run that took the row and stopped (its process died): its lease is never ended.
      const stopped = await lifecycle.leaseUnsettled({ graceSeconds, batchSize, leaseMs })
      clock.advance(leaseMs - 1)
      const whileHeld = await stack.confirm()
      clock.advance(1)
      const once = await stack.confirm()

      assert.isAbove(leaseMs, 60_000, 'minutes, far beyond clock skew between instances')
      assert.lengthOf(stopped.rows, 1)
      const nothing = { confirmed: 0, failed: 0, rebroadcast: 0, pending: 0, unsettled: 0 }
      assert.deepEqual(whileHeld, nothing)
      assert.deepEqual(once, { ...nothing, rebroadcast: 1 })
    } finally {
      restore()
    }
  })

  test('two runs at once never both take a row', async ({ client, assert }) => {
    await unsent(client, 4)
    const { clock, restore } = await manualClockFromNow()
    try {
      const lifecycle = await app.container.make(WithdrawalLifecycle)
      const lease = { graceSeconds: 0, batchSize: 10, leaseMs: 300_000 }

      const [first, second] = await Promise.all([
        lifecycle.leaseUnsettled(lease),
        lifecycle.leaseUnsettled(lease),
      ])
      await Promise.all([first.end(), second.end()])
      clock.advance(30_000)
      const runs = await Promise.all([stack.confirm(), stack.confirm()])

      const taken = [...first.rows, ...second.rows].map((row) => row.id)
      assert.lengthOf(taken, 4)
      assert.lengthOf(new Set(taken), 4)
      assert.equal(runs[0].rebroadcast + runs[1].rebroadcast, 4)
      assert.equal(runs[0].pending + runs[1].pending, 0, 'no run found a row another was sending')
    } finally {
      restore()
    }
  })
})
