import { test } from '@japa/runner'
import { CachedPayerAccounts } from '#payments/payer_accounts'

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
    let now = 0
    const chain = new CountingAccounts()
    const accounts = new CachedPayerAccounts(chain, {
      ttlMs: 3_000,
      maxEntries: 10,
      now: () => now,
    })

    const first = await accounts.getAccount('ST1')
    now = 2_999
    const reused = await accounts.getAccount('ST1')
    now = 3_000
    const refreshed = await accounts.getAccount('ST1')

    assert.deepEqual(reused, first)
    assert.notDeepEqual(refreshed, first)
    assert.equal(chain.calls, 2)
  })

  test('a failed look-up is not cached', async ({ assert }) => {
    const chain = new CountingAccounts()
    const accounts = new CachedPayerAccounts(chain, { ttlMs: 3_000, maxEntries: 10, now: () => 0 })
    chain.fail = true
    await assert.rejects(() => accounts.getAccount('ST1'), 'node down')
    chain.fail = false

    await accounts.getAccount('ST1')

    assert.equal(chain.calls, 2)
  })
})
