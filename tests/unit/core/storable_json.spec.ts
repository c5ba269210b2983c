import { test } from '@japa/runner'
import { containsNul, isStorableAsJsonb, isTooDeep, MAX_JSON_DEPTH } from '#core/storable_json'

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth))

test.group('JSON we can store', () => {
  test('a NUL or an unpaired surrogate, in a value or a key, cannot be stored as jsonb', ({
    assert,
  }) => {
    for (const value of [{ a: '\0' }, { ['a\0']: 1 }, ['\ud800'], { a: ['x\udfffy'] }]) {
      assert.isFalse(isStorableAsJsonb(value), JSON.stringify(value))
    }
    assert.isTrue(isStorableAsJsonb({ a: ['😀', 'ü', 1, null, true] }))
    assert.isTrue(containsNul({ a: [{ b: 'x\0' }] }))
    assert.isFalse(containsNul({ a: '\ud800' }))
  })

  test('a number JSON.parse overflowed to Infinity (1e400) cannot be stored as it was sent', ({
    assert,
  }) => {
    for (const text of ['[1e400]', '{"a":{"b":-1e400}}']) {
      assert.isFalse(isStorableAsJsonb(JSON.parse(text)), text)
    }
    assert.isTrue(isStorableAsJsonb(JSON.parse('[1.7976931348623157e308, 1e-400, -0]')))
  })

  test(`nesting deeper than ${MAX_JSON_DEPTH} levels is refused, whatever the depth`, ({
    assert,
  }) => {
    assert.isFalse(isTooDeep(nested(MAX_JSON_DEPTH)))
    assert.isTrue(isTooDeep(nested(MAX_JSON_DEPTH + 1)))
    assert.isTrue(isTooDeep(nested(100_000)))
    assert.isFalse(isStorableAsJsonb(nested(MAX_JSON_DEPTH + 1)))
  })
})
