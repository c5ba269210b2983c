import { test } from '@japa/runner'
import { feedDeclaration } from '#feeds/feed_declaration'
import { shapeOf } from '#web/response_shape'

test.group('The response shape a feed page shows', () => {
  test("is the declared body's keys and types, references resolved", ({ assert }) => {
    const { output } = feedDeclaration({
      providerId: 'provider',
      slug: 'prices',
      sourceType: 'manual_upload',
      sourceSettings: {},
      priceMicrostx: 5_000n,
      outputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          prices: { type: 'array', items: { $ref: '#/$defs/price' } },
          side: { enum: ['buy', 'sell'] },
          note: { type: ['string', 'null'] },
        },
        required: ['prices', 'side'],
        $defs: {
          price: {
            type: 'object',
            properties: { usd: { type: 'number' }, at: { type: 'string', format: 'date-time' } },
            required: ['usd'],
          },
        },
      },
      outputExample: null,
    })

    assert.deepEqual(shapeOf(output!.schema), {
      'data': {
        'prices': [{ 'usd': 'number', 'at?': 'string (date-time)' }],
        'side': 'one of: buy | sell',
        'note?': 'string | null',
      },
      'price': 5000,
      'price_stx': '0.005',
      'data_source': 'string',
      'last_updated': 'integer',
      'stale?': true,
    })
    assert.isNull(output!.example)
  })

  test('stays bounded on a schema that refers to itself', ({ assert }) => {
    const shape = JSON.stringify(
      shapeOf({ type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] })
    )
    assert.include(shape, '…')
    assert.isBelow(shape.length, 500)
  })

  test('stays bounded on references that fan out, wide unions and long values', ({ assert }) => {
    // Every branch refers back: unbounded, 200 branches render 32 MB over 9 s.
    const fanOut = {
      $defs: { d: { anyOf: Array.from({ length: 200 }, () => ({ $ref: '#/$defs/d' })) } },
      $ref: '#/$defs/d',
    }
    const wide = { prefixItems: Array.from({ length: 500 }, () => ({ const: 'x'.repeat(1_000) })) }

    for (const schema of [fanOut, wide]) {
      const shape = JSON.stringify(shapeOf(schema), null, 2)
      assert.include(shape, '…')
      assert.isBelow(shape.length, 100_000)
    }
  })
})
