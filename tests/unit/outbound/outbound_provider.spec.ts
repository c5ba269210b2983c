import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { OutboundConfig } from '#outbound/define_config'
import { OutboundClient } from '#outbound/outbound_client'
import OutboundProvider from '#providers/outbound_provider'
import { startServer } from './test_server.js'

test.group('The outbound provider', () => {
  test('the test environment allows private targets over plain http', async ({ assert }) => {
    assert.deepInclude(await app.container.make(OutboundConfig), {
      allowPrivateTargets: true,
      httpsOnly: false,
      allowedPorts: undefined,
      timeoutMs: 5_000,
      maxBytes: 1_048_576,
      maxRedirects: 3,
    })
  })

  test('binds one client built from config/outbound.ts', async ({ assert, cleanup }) => {
    if (!app.container.hasBinding(OutboundClient)) new OutboundProvider(app).register()
    const server = await startServer((_request, response) => response.end('hello'))
    cleanup(() => server.close())

    const outbound = await app.container.make(OutboundClient)
    const response = await outbound.request(server.url, { redirect: 'manual' })

    assert.strictEqual(outbound, await app.container.make(OutboundClient))
    assert.equal(response.body.toString(), 'hello')
  })
})
