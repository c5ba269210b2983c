import { test } from '@japa/runner'
import type { PaymentRequired } from '#payments/x402'
import { decodeHeader } from '#tests/support/paid_calls'
import { newOwner, registerProvider } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

test.group('The unpaid 402, built once per feed row', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('a feed edited after its 402 was asked is quoted anew, body and header alike', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const path = '/feeds/p/acme-data/btc-price'
    const first = await client.get(path)
    const again = await client.get(path)
    assert.deepEqual(again.body(), first.body())

    const edited = await client
      .patch(`/providers/id/${provider.id}/feeds/btc-price`)
      .bearerToken(owner.token)
      .json({ price_stx: '0.02', description: 'Now with depth' })
    edited.assertStatus(200)
    const quote = await client.get(`${path}?symbol=STX`)
    const requote = await client.get(path)

    for (const response of [quote, requote]) {
      response.assertStatus(402)
      const header = decodeHeader<PaymentRequired>(response.header('payment-required'))
      assert.equal(response.body().accepts[0].amount, '20000')
      assert.equal(header.accepts[0].amount, '20000')
      assert.equal(response.body().resource.description, 'Now with depth')
    }
    assert.notEqual(first.body().accepts[0].amount, '20000')
  })
})
