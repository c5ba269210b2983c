import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { selectTogether } from '#core/select_together'

test.group('Several SELECTs as one statement', () => {
  test('each one gets its own rows, bindings in order, numbers as exact text', async ({
    assert,
  }) => {
    const [big, none, words] = await selectTogether(db.connection(), [
      {
        sql: 'SELECT ?::bigint * 10 AS amount, 1.5::numeric AS ratio, true AS ok',
        bindings: ['9007199254740993'],
      },
      { sql: 'SELECT 1 AS never WHERE false' },
      {
        sql: 'SELECT word, ? AS tag FROM unnest(?::text[]) AS word ORDER BY word',
        bindings: ['t', ['b', 'a']],
      },
    ])

    assert.deepEqual(big, [{ amount: '90071992547409930', ratio: '1.5', ok: true }])
    assert.deepEqual(none, [])
    assert.deepEqual(words, [
      { word: 'a', tag: 't' },
      { word: 'b', tag: 't' },
    ])
  })
})
