import { fork } from 'node:child_process'
import { once } from 'node:events'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { testDatabaseUrl } from '#tests/support/ace'
import { freePort } from '#tests/support/cluster'

/**
 * `npm run dev`'s dev server (AdonisJS' assembler) runs bin/server.ts with
 * DEV_MODE=true and an IPC channel, and starts watching files only once that
 * process sends AdonisJS' ready message; it restarts it on a change.
 */
test.group('bin/server.ts under the dev server', () => {
  test('is the HTTP server itself and says it is ready to the dev server', async ({
    assert,
    cleanup,
  }) => {
    const port = await freePort()
    const child = fork('bin/server.ts', [], {
      cwd: app.appRoot.pathname,
      execArgv: ['--import=@poppinss/ts-exec'],
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: testDatabaseUrl(),
        DEV_MODE: 'true',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    })
    const exited = once(child, 'exit')
    cleanup(async () => {
      child.kill('SIGTERM')
      await exited
    })

    const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
      child.on('message', (message: Record<string, unknown>) => {
        if (message?.isAdonisJS) resolve(message)
      })
      void exited.then(() => reject(new Error('bin/server.ts exited before it was ready')))
    })

    assert.containsSubset(ready, { isAdonisJS: true, environment: 'web', port })
    const live = await fetch(`http://127.0.0.1:${port}/health/live`)
    assert.equal(live.status, 200)
    const scrape = await fetch(`http://127.0.0.1:${port}/metrics`)
    const metrics = await scrape.text()
    assert.notInclude(metrics, 'process="web-')
  })
})
