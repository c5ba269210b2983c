import { test } from '@japa/runner'
import { OUTPUT_LIMITS } from '#feeds/output_schema'
import { createFeed, PRICES_EXAMPLE, PRICES_SCHEMA } from '#tests/support/feeds'
import {
  createProviderRow,
  newOwner,
  postRegistration,
  registerProvider,
  registration,
} from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

/** Nested `levels` deep: {"a": {"a": … {}}}. */
function nested(levels: number): Record<string, unknown> {
  return levels === 0 ? {} : { a: nested(levels - 1) }
}

test.group("A feed's output declaration", (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('the owner declares, edits and clears it; owner views show it', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const base = `/providers/id/${provider.id}/feeds`

    const created = await client.post(base).bearerToken(owner.token).json({
      slug: 'eth-price',
      display_name: 'ETH',
      price_stx: '0.005',
      source_path: '/v1/eth',
      output_schema: PRICES_SCHEMA,
      output_example: PRICES_EXAMPLE,
    })
    created.assertStatus(201)
    assert.deepEqual(created.body().feed.output_schema, PRICES_SCHEMA)
    assert.deepEqual(created.body().feed.output_example, PRICES_EXAMPLE)

    const example = { prices: [{ symbol: 'ETH', usd: 3_100 }] }
    const edited = await client
      .patch(`${base}/eth-price`)
      .bearerToken(owner.token)
      .json({ output_example: example })
    edited.assertStatus(200)
    const shown = await client.get(`${base}/eth-price`).bearerToken(owner.token)
    assert.deepEqual(shown.body().feed.output_schema, PRICES_SCHEMA)
    assert.deepEqual(shown.body().feed.output_example, example)

    const mismatch = await client
      .patch(`${base}/eth-price`)
      .bearerToken(owner.token)
      .json({ output_example: { prices: [{ symbol: 'ETH' }] } })
    mismatch.assertStatus(422)
    assert.equal(mismatch.body().error.code, 'output_example_mismatch')
    assert.equal(mismatch.body().error.fields[0].field, 'output_example')
    assert.include(mismatch.body().error.message, "must have required property 'usd'")

    // Clearing the schema clears its example; an array example is stored as JSON.
    const cleared = await client
      .patch(`${base}/eth-price`)
      .bearerToken(owner.token)
      .json({ output_schema: null })
    cleared.assertStatus(200)
    assert.containsSubset(cleared.body().feed, { output_schema: null, output_example: null })
    const listed = await client
      .patch(`${base}/eth-price`)
      .bearerToken(owner.token)
      .json({
        output_schema: { type: 'array', items: { type: 'integer' } },
        output_example: [1, 2],
      })
    listed.assertStatus(200)
    const view = await client.get(`/providers/id/${provider.id}`).bearerToken(owner.token)
    const feed = view.body().provider.feeds.find((entry: any) => entry.slug === 'eth-price')
    assert.deepEqual(feed.output_example, [1, 2])
    assert.isNull(view.body().provider.feeds[0].output_schema)
  })

  test('an unusable schema or a mismatching example is refused with its field and code', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const feed = (fields: Record<string, unknown>) =>
      client
        .post(`/providers/id/${provider.id}/feeds`)
        .bearerToken(owner.token)
        .json({ slug: 'x', display_name: 'X', price_stx: '0.005', source_path: '/x', ...fields })

    const refusals: [Record<string, unknown>, string, string, string][] = [
      [
        { output_schema: { type: 'objekt' } },
        'output_schema',
        'invalid_output_schema',
        'JSON Schema (2020-12)',
      ],
      [
        { output_schema: { type: 'object', properites: {} } },
        'output_schema',
        'invalid_output_schema',
        'unknown keyword: "properites"',
      ],
      [
        { output_schema: { type: 'string', format: 'colour' } },
        'output_schema',
        'invalid_output_schema',
        'unknown format "colour"',
      ],
      [
        { output_schema: { $ref: 'https://evil.example/schema.json' } },
        'output_schema',
        'invalid_output_schema',
        'may only refer inside itself',
      ],
      [
        { output_schema: { $ref: '#/$defs/missing' } },
        'output_schema',
        'invalid_output_schema',
        "can't resolve reference",
      ],
      [
        { output_schema: { $id: 'https://acme.example/s', type: 'object' } },
        'output_schema',
        'invalid_output_schema',
        'may not set $id',
      ],
      [
        { output_schema: { $schema: 'http://json-schema.org/draft-07/schema#' } },
        'output_schema',
        'invalid_output_schema',
        'is not usable',
      ],
      [
        { output_schema: [{ type: 'object' }] },
        'output_schema',
        'invalid_output_schema',
        'must be a JSON Schema object',
      ],
      [
        { output_schema: { description: 'x'.repeat(OUTPUT_LIMITS.maxBytes) } },
        'output_schema',
        'invalid_output_schema',
        'larger than 32768 bytes',
      ],
      [
        { output_schema: { properties: nested(40) } },
        'output_schema',
        'invalid_output_schema',
        'deeper than 32 levels',
      ],
      [
        { output_schema: PRICES_SCHEMA, output_example: { prices: 'none' } },
        'output_example',
        'output_example_mismatch',
        'output_example/prices must be array',
      ],
      [
        { output_schema: { type: 'object' }, output_example: nested(40) },
        'output_example',
        'output_example_mismatch',
        'deeper than 32 levels',
      ],
      [
        { output_example: PRICES_EXAMPLE },
        'output_example',
        'output_example_mismatch',
        'needs an output_schema',
      ],
    ]
    for (const [fields, field, code, words] of refusals) {
      const response = await feed(fields)
      response.assertStatus(422)
      assert.equal(response.body().error.code, code, words)
      assert.equal(response.body().error.fields[0].field, field, words)
      assert.include(response.body().error.fields[0].message, words)
    }
    const view = await client.get(`/providers/id/${provider.id}`).bearerToken(owner.token)
    assert.lengthOf(view.body().provider.feeds, 1)
  })

  test('a pattern runs in linear time: a catastrophic one does not hang the server', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const feed = (fields: Record<string, unknown>) =>
      client
        .post(`/providers/id/${provider.id}/feeds`)
        .bearerToken(owner.token)
        .json({ slug: 'x', display_name: 'X', price_stx: '0.005', source_path: '/x', ...fields })

    // With a backtracking engine this example takes about 2^40 steps.
    const refused = await feed({
      output_schema: { type: 'string', pattern: '^(a+)+$' },
      output_example: `${'a'.repeat(40)}!`,
    })
    refused.assertStatus(422)
    assert.equal(refused.body().error.code, 'output_example_mismatch')
    assert.include(refused.body().error.message, 'must match pattern')

    const lookahead = await feed({ output_schema: { type: 'string', pattern: '^(?=a)' } })
    lookahead.assertStatus(422)
    assert.equal(lookahead.body().error.code, 'invalid_output_schema')
  })

  test('a registration declares its first feed, or is refused with feed.output_schema', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const refused = await postRegistration(client, owner.token, {
      feed: { ...registration().feed, output_schema: { type: 7 } },
    })
    refused.assertStatus(422)
    assert.equal(refused.body().error.code, 'invalid_output_schema')
    assert.equal(refused.body().error.fields[0].field, 'feed.output_schema')

    const accepted = await postRegistration(client, owner.token, {
      feed: {
        ...registration().feed,
        output_schema: PRICES_SCHEMA,
        output_example: PRICES_EXAMPLE,
      },
    })
    accepted.assertStatus(201)
    assert.deepEqual(accepted.body().feed.output_example, PRICES_EXAMPLE)
  })

  test('a recursive schema that goes into the data, and its deep example, are accepted', async ({
    client,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const tree = (levels: number): unknown =>
      levels === 0 ? { value: 1 } : { value: 1, left: tree(levels - 1), right: tree(levels - 1) }

    const response = await client
      .post(`/providers/id/${provider.id}/feeds`)
      .bearerToken(owner.token)
      .json({
        slug: 'tree',
        display_name: 'Tree',
        price_stx: '0.005',
        source_path: '/tree',
        output_schema: {
          $defs: {
            node: {
              type: 'object',
              properties: {
                value: { type: 'number' },
                left: { $ref: '#/$defs/node' },
                right: { $ref: '#/$defs/node' },
              },
              required: ['value'],
            },
          },
          $ref: '#/$defs/node',
        },
        output_example: tree(8),
      })

    response.assertStatus(201)
  })

  test('a stored schema whose references fan out renders its page in bounded size', async ({
    client,
    assert,
  }) => {
    const provider = await createProviderRow('fan-out')
    // Stored as it is, past the checks a declaration goes through now.
    await createFeed({
      providerId: provider.id,
      slug: 'fan',
      sourceType: 'manual_upload',
      outputSchema: {
        $defs: { d: { anyOf: Array.from({ length: 200 }, () => ({ $ref: '#/$defs/d' })) } },
        $ref: '#/$defs/d',
      },
    })

    const page = await client.get('/market/feeds/p/fan-out/fan').header('accept', 'text/html')

    page.assertStatus(200)
    assert.include(page.text(), 'Response shape')
    assert.isBelow(page.text().length, 200_000)
  })
})
