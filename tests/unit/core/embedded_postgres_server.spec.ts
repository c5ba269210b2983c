import { test } from '@japa/runner'
import { createServer } from 'node:net'
import app from '@adonisjs/core/services/app'
import { EmbeddedPostgresServer } from '#core/embedded_postgres_server'

test.group('The embedded PostgreSQL server', () => {
  test('a fixed port another program holds is refused in words, before anything starts', async ({
    assert,
  }) => {
    const other = createServer()
    await new Promise<void>((resolve) => other.listen({ port: 0, host: '127.0.0.1' }, resolve))
    const { port } = other.address() as { port: number }
    const logged: string[] = []
    const server = new EmbeddedPostgresServer(
      {
        enabled: true,
        dataDir: app.tmpPath(`postgres-never-started-${process.pid}`),
        port,
        user: 'tollbooth',
        password: 'tollbooth',
        database: 'tollbooth',
        throwAway: false,
        postgresFlags: [],
      },
      (message) => logged.push(message)
    )
    try {
      await assert.rejects(
        () => server.start(),
        `port ${port} is taken by another program — most likely the embedded PostgreSQL of another checkout (stop its \`npm run dev\` and its postgres process), or set EMBEDDED_PG_PORT to a free port in .env`
      )
      assert.deepEqual(logged, [])
    } finally {
      await new Promise((resolve) => other.close(resolve))
    }
  })
})
