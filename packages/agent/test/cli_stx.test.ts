import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatStx, parseStx } from '../src/cli/stx.ts'

test('an STX amount is read into µSTX exactly', () => {
  assert.equal(parseStx('0.01'), 10_000n)
  assert.equal(parseStx('5'), 5_000_000n)
  assert.equal(parseStx('.5'), 500_000n)
  assert.equal(parseStx('0.000001'), 1n)
  assert.equal(parseStx('1.'), 1_000_000n)
  // 0.1 + 0.2 in floating point is 0.30000000000000004: no float on the way.
  assert.equal(parseStx('0.3'), 300_000n)
})

test('more than 6 decimals, a sign, an exponent or nothing is refused', () => {
  for (const text of ['0.0000001', '-1', '1e3', '', '.', 'abc', '1,5', '0x10']) {
    assert.equal(parseStx(text), null, text)
  }
})

test('µSTX is written back as STX without trailing zeros', () => {
  assert.equal(formatStx(5_000n), '0.005')
  assert.equal(formatStx(1_000_000n), '1')
  assert.equal(formatStx(1_234_567n), '1.234567')
  assert.equal(formatStx(0n), '0')
})
