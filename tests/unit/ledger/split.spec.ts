import { test } from '@japa/runner'
import { splitPayment } from '#ledger/split'
import { E_NON_POSITIVE_AMOUNT } from '#ledger/exceptions'

test.group('Splitting a payment between the platform and the provider', () => {
  test('the fee and the share of {amount} µSTX are {fee} and {share}')
    .with([
      { amount: 1n, fee: 0n, share: 1n },
      { amount: 33n, fee: 0n, share: 33n },
      { amount: 34n, fee: 1n, share: 33n },
      { amount: 100n, fee: 3n, share: 97n },
      { amount: 199n, fee: 5n, share: 194n },
      { amount: 5000n, fee: 150n, share: 4850n },
      { amount: 5001n, fee: 150n, share: 4851n },
      { amount: 10_000_000n, fee: 300_000n, share: 9_700_000n },
    ])
    .run(({ assert }, { amount, fee, share }) => {
      assert.deepEqual(splitPayment(amount), { fee, providerShare: share })
    })

  test('fee and share always add up to the amount, the fee being 3% rounded down', ({ assert }) => {
    const amounts = [
      ...Array.from({ length: 1000 }, (_, i) => BigInt(i + 1)),
      999_999n,
      1_000_001n,
      123_456_789n,
      2n ** 63n - 1n,
    ]
    for (const amount of amounts) {
      const { fee, providerShare } = splitPayment(amount)
      assert.equal(fee + providerShare, amount)
      assert.isTrue(fee * 100n <= amount * 3n && amount * 3n < (fee + 1n) * 100n, `${amount}`)
    }
  })

  test('a zero or negative amount is refused', ({ assert }) => {
    assert.throws(() => splitPayment(0n), E_NON_POSITIVE_AMOUNT)
    assert.throws(() => splitPayment(-5000n), E_NON_POSITIVE_AMOUNT)
  })
})
