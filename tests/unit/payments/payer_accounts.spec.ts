import { test } from '@japa/runner'
import { CachedPayerAccounts } from '#payments/payer_accounts'
import { ManualClock } from '#tests/support/clock'

class CountingAccounts {
  calls = 0
  fail = false
  async getAccount(address: string) {
    this.calls++
    if (this.fail) throw new Error('node down')
    return { balance: BigInt(address.length * 1000 + this.calls), nonce: 0n }
  }
}

test.group('Payer account look-ups', () => {
  test('are reused for a payer within the TTL, then asked again', async ({ assert }) => {
    const clock = new ManualClock()
    const chain = new CountingAccounts()
    const accounts = new CachedPayerAccounts(chain, clock, { ttlMs: 3_000, maxEntries: 10 })

    const first = await accounts.getAccount('ST1')
    clock.advance(2_999)
    const reused = await accounts.getAccount('ST1')
    clock.advance(1)
    const refreshed = await accounts.getAccount('ST1')

    assert.deepEqual(reused, first)
    assert.notDeepEqual(refreshed, first)
    assert.equal(chain.calls, 2)
  })

  test('a caller needing a recent answer gets one asked since, which others then reuse', async ({
    assert,
  }) => {
    const clock = new ManualClock()
    const chain = new CountingAccounts()
    const accounts = new CachedPayerAccounts(chain, clock, { ttlMs: 3_000, maxEntries: 10 })

    const first = await accounts.getAccount('ST1')
    clock.advance(1_000)
    const recent = await accounts.getAccount('ST1', { maxAgeMs: 1_000 })
    const reused = await accounts.getAccount('ST1', { maxAgeMs: 1 })

    assert.notDeepEqual(recent, first)
    assert.deepEqual(reused, recent)
    assert.equal(chain.calls, 2)
  })

  test('concurrent look-ups of one payer share one node call', async ({ assert }) => {
    const chain = new CountingAccounts()
    const accounts = new CachedPayerAccounts(chain, new ManualClock(), {
      ttlMs: 3_000,
      maxEntries: 10,
    })

    const answers = await Promise.all([1, 2, 3].map(() => accounts.getAccount('ST1')))

    assert.deepEqual(answers, Array(3).fill(answers[0]))
    assert.equal(chain.calls, 1)
  })

  test('a failed look-up is not cached', async ({ assert }) => {
    const chain = new CountingAccounts()
    const accounts = new CachedPayerAccounts(chain, new ManualClock(), {
      ttlMs: 3_000,
      maxEntries: 10,
    })
    chain.fail = true
    await assert.rejects(() => accounts.getAccount('ST1'), 'node down')
    chain.fail = false

    await accounts.getAccount('ST1')

    assert.equal(chain.calls, 2)
  })

  test('a payment confirmed at the next nonce moves the held answer on, without a node call', async ({
    assert,
  }) => {
    const clock = new ManualClock()
    const chain = new CountingAccounts()
    const accounts = new CachedPayerAccounts(chain, clock, { ttlMs: 3_000, maxEntries: 10 })
    const held = await accounts.getAccount('ST1')

    accounts.confirmed({ payer: 'ST1', nonce: 0n, amount: 500n, fee: 100n })
    const after = await accounts.getAccount('ST1')

    assert.deepEqual(after, { nonce: 1n, balance: held.balance - 600n })
    assert.equal(chain.calls, 1)
    // Still the first answer's age: a caller needing a recent one asks the node.
    clock.advance(10)
    await accounts.getAccount('ST1', { maxAgeMs: 5 })
    assert.equal(chain.calls, 2)
  })

  test('a confirmation at another nonce, or of a payer not held, changes nothing', async ({
    assert,
  }) => {
    const chain = new CountingAccounts()
    const accounts = new CachedPayerAccounts(chain, new ManualClock(), {
      ttlMs: 3_000,
      maxEntries: 10,
    })
    const held = await accounts.getAccount('ST1')

    // Out of order (nonce 1 seen before 0): the held answer would miss nonce 0's spending.
    accounts.confirmed({ payer: 'ST1', nonce: 1n, amount: 500n, fee: 100n })
    accounts.confirmed({ payer: 'ST2', nonce: 0n, amount: 500n, fee: 100n })

    assert.deepEqual(await accounts.getAccount('ST1'), held)
    await accounts.getAccount('ST2')
    assert.equal(chain.calls, 2)
  })
})
