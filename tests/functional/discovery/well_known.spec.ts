import { test } from '@japa/runner'
import { publicUrl } from '#core/public_url'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { providerWithDeclaredFeed } from '#tests/support/discovery'
import { inGlobalTransaction } from '#tests/support/database'

test.group('/.well-known/x402 and /llms.txt', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test("/.well-known/x402 lists the live feeds' URLs in x402scan's shape", async ({
    client,
    assert,
  }) => {
    await providerWithDeclaredFeed(client)

    const response = await client.get('/.well-known/x402')

    response.assertStatus(200)
    assert.match(response.header('content-type') ?? '', /^application\/json/)
    const body = response.body()
    assert.equal(body.version, 1)
    const listed = await client.get('/facilitator/discovery/resources').qs({ limit: 50 })
    assert.deepEqual(
      body.resources,
      listed.body().items.map((item: { resource: string }) => item.resource)
    )
    assert.lengthOf(body.resources, BUILTIN_FEEDS.length + 2)
    assert.include(
      body.resources,
      publicUrl('/feeds/token-intel?address=0x6982508145454ce325ddbe47a25d4ec3d2311933')
    )
    for (const url of body.resources as string[]) {
      const probe = await client.get(url.slice(publicUrl('').length))
      assert.equal(probe.status(), 402, `${url}: ${probe.text()}`)
    }
    assert.include(body.resources, publicUrl('/feeds/p/acme-data/eth-price'))
    assert.include(body.instructions, publicUrl('/facilitator/discovery/resources'))
  })

  test('/llms.txt says in markdown what Tollbooth is, where to find feeds and how to pay', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/llms.txt')

    response.assertStatus(200)
    assert.match(response.header('content-type') ?? '', /^text\/plain; charset=utf-8/)
    const text = response.text()
    assert.match(text, /^# Tollbooth\n\n> /)
    for (const path of [
      '/facilitator/discovery/resources',
      '/facilitator/discovery/search',
      '/registry/feeds',
      '/registry/provider-feeds',
      '/openapi.json',
      '/.well-known/x402',
    ]) {
      assert.include(text, `](${publicUrl(path)}`, path)
    }
    for (const words of ['payment-signature', 'payment-identifier', '402', 'stacks:2147483648']) {
      assert.include(text, words)
    }
  })
})
