import { test } from '@japa/runner'
import { newOwner, postRegistration, registerProvider } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

test.group('Attacks | an owner view kept by a shared cache', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('every answer to a signed-in owner is Cache-Control: no-store, its one-time secret included', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const registered = await postRegistration(client, owner.token)
    registered.assertStatus(201)
    assert.equal(registered.header('cache-control'), 'no-store', 'POST /providers')
    const id = registered.body().provider.id

    for (const path of [
      '/auth/me',
      '/me/providers',
      `/providers/id/${id}`,
      `/providers/id/${id}/analytics`,
      `/providers/id/${id}/feeds/btc-price`,
      `/providers/id/${id}/withdrawals`,
    ]) {
      const view = await client.get(path).bearerToken(owner.token)
      view.assertStatus(200)
      assert.equal(view.header('cache-control'), 'no-store', path)
    }
  })

  test('the public profile of the same provider stays cacheable', async ({ client, assert }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token)

    const profile = await client.get('/providers/acme-data')

    profile.assertStatus(200)
    assert.notEqual(profile.header('cache-control'), 'no-store')
  })
})
