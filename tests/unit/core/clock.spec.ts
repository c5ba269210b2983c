import { test } from '@japa/runner'
import { ManualClock } from '#tests/support/clock'

test.group('Clock deadline', () => {
  test('aborts with a TimeoutError when the clock reaches it, not before', async ({ assert }) => {
    const clock = new ManualClock()
    const deadline = clock.deadline(5_000)

    clock.advance(4_999)
    assert.isFalse(deadline.signal.aborted)
    clock.advance(1)
    assert.isTrue(deadline.signal.aborted)
    assert.equal((deadline.signal.reason as DOMException).name, 'TimeoutError')
  })

  test('cleared, it never fires and leaves no timer behind', async ({ assert }) => {
    const clock = new ManualClock()
    const deadline = clock.deadline(5_000)

    deadline.clear()
    clock.advance(10_000)
    assert.isFalse(deadline.signal.aborted)
    assert.equal(clock.pendingTimers, 0)
  })
})
