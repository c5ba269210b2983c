import { test } from '@japa/runner'
import { newOwner, registerProvider } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

test.group('Checking a handle before registering', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('says whether registration would take it, with its reason and words', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, { handle: 'acme-data' })

    const free = await client.get('/handles/acme-labs')
    const taken = await client.get('/handles/acme-data')
    const reserved = await client.get('/handles/dashboard')
    const invalid = await client.get('/handles/-bad-')

    assert.deepEqual(free.body(), { handle: 'acme-labs', available: true })
    assert.deepEqual(taken.body(), {
      handle: 'acme-data',
      available: false,
      reason: 'handle_taken',
      message: 'The handle "acme-data" is already taken',
    })
    assert.containsSubset(reserved.body(), { available: false, reason: 'handle_reserved' })
    assert.containsSubset(invalid.body(), { available: false, reason: 'handle_invalid' })
    assert.include(invalid.body().message, '3 to 32 characters')
  })
})
