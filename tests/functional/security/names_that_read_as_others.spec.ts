import { test } from '@japa/runner'
import { newOwner, postRegistration, registerProvider } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

/**
 * Characters that make a name read as another one or reorder what follows it
 * on a page: bidirectional overrides, isolates and marks, zero-width
 * characters, C0 and C1 controls and DEL.
 */
const HIDDEN = {
  'U+202E right-to-left override': '\u202E',
  'U+202A left-to-right embedding': '\u202A',
  'U+2066 left-to-right isolate': '\u2066',
  'U+2069 pop directional isolate': '\u2069',
  'U+200F right-to-left mark': '\u200F',
  'U+061C Arabic letter mark': '\u061C',
  'U+200B zero-width space': '\u200B',
  'U+200D zero-width joiner': '\u200D',
  'U+2060 word joiner': '\u2060',
  'U+FEFF zero-width no-break space': '\uFEFF',
  'U+0007 bell': '\u0007',
  'U+000A line feed': '\n',
  'U+007F delete': '\u007F',
  'U+0085 next line': '\u0085',
}

/** A name with the character inside it, where trimming does not reach. */
const named = (character: string) => `Acme${character}Data`

test.group('Attacks | names and descriptions that read as others', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('registration refuses {$self} in any name or description, naming the field')
    .with(Object.keys(HIDDEN) as Array<keyof typeof HIDDEN>)
    .run(async ({ client, assert }, name) => {
      const character = HIDDEN[name]
      const owner = await newOwner(client)
      const feed = { slug: 'btc-price', display_name: 'BTC', price_stx: '0.005', source_path: '/' }
      for (const [body, field] of [
        [{ display_name: named(character) }, 'display_name'],
        [{ description: named(character) }, 'description'],
        [{ feed: { ...feed, display_name: named(character) } }, 'feed.display_name'],
        [{ feed: { ...feed, description: named(character) } }, 'feed.description'],
      ] as const) {
        const refused = await postRegistration(client, owner.token, body)

        refused.assertStatus(422)
        assert.equal(refused.body().error.code, 'validation_failed', field)
        assert.containsSubset(refused.body().error.fields, [{ field, rule: 'plain_text' }], field)
      }
      const mine = await client.get('/me/providers').bearerToken(owner.token)
      assert.lengthOf(mine.body().providers, 0, 'nothing registered')
    })

  test('profile and feed edits refuse them too, and change nothing', async ({ client, assert }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const base = `/providers/id/${provider.id}`

    for (const character of Object.values(HIDDEN)) {
      for (const [path, method, body, field] of [
        [base, 'patch', { display_name: named(character) }, 'display_name'],
        [base, 'patch', { description: named(character) }, 'description'],
        [`${base}/feeds/btc-price`, 'patch', { display_name: named(character) }, 'display_name'],
        [`${base}/feeds/btc-price`, 'patch', { description: named(character) }, 'description'],
        [
          `${base}/feeds`,
          'post',
          { slug: 'eth', display_name: named(character), price_stx: '0.005', source_path: '/' },
          'display_name',
        ],
        [
          `${base}/feeds`,
          'post',
          {
            slug: 'eth',
            display_name: 'ETH',
            description: named(character),
            price_stx: '0.005',
            source_path: '/',
          },
          'description',
        ],
      ] as const) {
        const refused = await client[method](path).bearerToken(owner.token).json(body)

        refused.assertStatus(422)
        assert.containsSubset(refused.body().error.fields, [{ field, rule: 'plain_text' }], path)
      }
    }

    const shown = await client.get(base).bearerToken(owner.token)
    assert.equal(shown.body().provider.display_name, 'Acme Data')
    assert.equal(shown.body().provider.description, 'Spot prices from our own matching engine')
    assert.deepEqual(
      shown.body().provider.feeds.map((feed: { display_name: string }) => feed.display_name),
      ['BTC price']
    )
  })

  test('letters of any script, accents and emoji are plain text', async ({ client, assert }) => {
    const owner = await newOwner(client)
    const registered = await postRegistration(client, owner.token, {
      display_name: 'Données Café ☕ 市场 بيانات',
      description: 'Prix au comptant — mis à jour chaque minute 📈',
    })

    registered.assertStatus(201)
    assert.equal(registered.body().provider.display_name, 'Données Café ☕ 市场 بيانات')
  })
})
