import { test } from '@japa/runner'
import { createServer } from 'node:net'
import { runAce } from '#tests/support/ace'

test.group('A second npm run dev', () => {
  test('refuses to start on a port in use, saying how to run a second one', async ({ assert }) => {
    const first = createServer()
    await new Promise<void>((resolve) => first.listen({ port: 0, host: '127.0.0.1' }, resolve))
    const { port } = first.address() as { port: number }
    try {
      const run = await runAce(['dev'], {
        env: {
          PORT: String(port),
          // Were it to start anyway, nothing would be started on the machine's default ports.
          STACKS_API_URL: 'http://devnet.invalid:3999',
          UPSTREAM_SIMULATOR_URL: 'http://simulator.invalid:3998',
        },
        timeoutMs: 20_000,
      })

      assert.equal(run.code, 1, run.output)
      assert.include(run.output, `port ${port} is in use — is another \`npm run dev\` running?`)
      assert.include(run.output, 'Set PORT and PUBLIC_URL')
      assert.notInclude(run.output, 'starting server')
    } finally {
      await new Promise((resolve) => first.close(resolve))
    }
  }).timeout(30_000)
})
