import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { StacksClient } from '#chain/stacks_client'
import { OutboundClient } from '#outbound/outbound_client'
import { useManualClock } from '#tests/support/clock'

/**
 * Its own file, so a run of it alone is the first to resolve these
 * singletons: first resolved under a manual clock, they must not keep it (their
 * time-outs would never fire in the tests after).
 */
test.group('Singletons under a manual clock', () => {
  test('the chain and outbound clients first resolved under a manual clock time out by the real one', async ({
    assert,
  }) => {
    const manual = await useManualClock()
    try {
      const stacks = await app.container.make(StacksClient)
      const outbound = await app.container.make(OutboundClient)
      // Nothing listens on port 1: each call sets its time-out, then fails.
      const calls = [
        stacks.getInfo(),
        outbound.request('http://127.0.0.1:1/', { redirect: 'manual' }),
      ].map((call) => call.catch(() => {}))
      assert.equal(manual.clock.pendingTimers, 0)
      await Promise.all(calls)
    } finally {
      manual.restore()
    }
  })
})
