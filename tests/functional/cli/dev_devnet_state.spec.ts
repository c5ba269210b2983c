import { test } from '@japa/runner'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAce } from '#tests/support/ace'

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

test.group('npm run dev and the devnet state file', () => {
  test('a state file the devnet cannot use stops it, naming the file and dev:reset', async ({
    assert,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'dev-state-'))
    const statePath = join(dir, 'devnet-development.json')
    await writeFile(statePath, '{"format": "tollbooth-devnet-state", "version": 99}')
    try {
      const run = await runAce(['dev'], {
        env: {
          PORT: String(await freePort()),
          STACKS_API_URL: `http://127.0.0.1:${await freePort()}`,
          UPSTREAM_SIMULATOR_URL: 'http://simulator.invalid:3998',
          DEVNET_STATE_PATH: statePath,
        },
        timeoutMs: 20_000,
      })

      assert.equal(run.code, 1, run.output)
      assert.include(run.output, `Cannot use the devnet state file ${statePath}: format version 99`)
      assert.include(run.output, '`node ace dev:reset` deletes the devnet chain')
      assert.notInclude(run.output, 'starting server')
      assert.equal(
        await readFile(statePath, 'utf8'),
        '{"format": "tollbooth-devnet-state", "version": 99}'
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }).timeout(30_000)
})
