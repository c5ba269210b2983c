import { test } from '@japa/runner'
import { createServer } from 'node:net'
import { isPortInUse } from '#core/port_in_use'

test.group('Whether a port is taken', () => {
  test('a port something listens on, on {$self}, is in use; once closed it is free')
    .with(['127.0.0.1', '::1'])
    .run(async ({ assert }, host) => {
      const server = createServer()
      await new Promise<void>((resolve) => server.listen({ port: 0, host }, resolve))
      const { port } = server.address() as { port: number }

      assert.isTrue(await isPortInUse(port))

      await new Promise((resolve) => server.close(resolve))
      assert.isFalse(await isPortInUse(port))
    })
})
