import { request } from 'node:http'
import { randomUUID } from 'node:crypto'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import env from '#start/env'

/**
 * A GET sent with its path exactly as written (`..` and all): fetch and the
 * api client normalise a path before sending it, an attacker's socket does not.
 */
function rawGet(path: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const call = request(
      { host: env.get('HOST'), port: env.get('PORT'), method: 'GET', path },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString('utf8') })
        )
      }
    )
    call.on('error', reject)
    call.end()
  })
}

test.group('Attacks | files of the checkout through the dev server', () => {
  test('no path, however written, reads the database, tmp/, secrets or the server sources', async ({
    assert,
  }) => {
    // Stands for what tmp/ holds in development: the PostgreSQL cluster, the devnet's chain.
    const secret = `wal-of-a-feed-never-sold-${randomUUID()}`
    const probe = `dev-server-probe-${randomUUID()}`
    await writeFile(app.tmpPath(probe), secret)
    const root = app.makePath()
    const files: Array<[path: string, file: string]> = [
      [`/resources/../tmp/${probe}?raw`, app.tmpPath(probe)],
      [`/resources/../tmp/${probe}`, app.tmpPath(probe)],
      [`/resources/%2e%2e/tmp/${probe}?raw`, app.tmpPath(probe)],
      [`/node_modules/../tmp/${probe}?import`, app.tmpPath(probe)],
      [`/@fs${app.tmpPath(probe)}`, app.tmpPath(probe)],
      [`/@fs${app.tmpPath(probe)}?raw`, app.tmpPath(probe)],
      [`/@fs${root}/.env.test`, app.makePath('.env.test')],
      [`/resources/../.env.test?raw`, app.makePath('.env.test')],
      [`/resources/../start/env.ts?raw`, app.makePath('start/env.ts')],
      [`/resources/../app/core/env_rules.ts?raw`, app.makePath('app/core/env_rules.ts')],
      [`/@fs${root}/config/app.ts?raw`, app.makePath('config/app.ts')],
      [
        `/resources/../database/migrations/1732233600002_create_ledger_tables.ts?raw`,
        app.makePath('database/migrations/1732233600002_create_ledger_tables.ts'),
      ],
      [`/@fs${root}/package.json`, app.makePath('package.json')],
    ]
    try {
      for (const [path, file] of files) {
        const answer = await rawGet(path)
        const content = await readFile(file, 'utf8')
        assert.oneOf(answer.status, [403, 404], path)
        assert.notInclude(answer.text, content.slice(0, 60).trim(), path)
      }
    } finally {
      await rm(app.tmpPath(probe), { force: true })
    }
  })

  test('the pages still get their scripts, stylesheet and shared modules', async ({ assert }) => {
    for (const path of [
      '/@vite/client',
      '/resources/js/app.tsx',
      '/resources/css/app.css',
      '/app/ledger/money.ts',
      '/app/feeds/feed_paths.ts',
      '/app/web/words.ts',
    ]) {
      const answer = await rawGet(path)
      assert.equal(answer.status, 200, path)
    }
  })
})
