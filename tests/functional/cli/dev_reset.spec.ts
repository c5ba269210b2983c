import { test } from '@japa/runner'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startDevnet } from '@tollbooth/devnet'
import { runAce } from '#tests/support/ace'

/**
 * `node ace dev:reset` as a developer runs it, on a devnet state file and an
 * embedded database directory of its own (DEVNET_STATE_PATH,
 * EMBEDDED_PG_DATA_DIR), never the checkout's tmp/.
 */
test.group('node ace dev:reset', (group) => {
  let dir = ''
  let statePath = ''
  let dataDir = ''

  group.each.setup(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dev-reset-'))
    statePath = join(dir, 'devnet-development.json')
    dataDir = join(dir, 'postgres-development')
    await writeFile(statePath, '{}')
    await mkdir(dataDir)
    await writeFile(join(dataDir, 'PG_VERSION'), '18\n')
    return () => rm(dir, { recursive: true, force: true })
  })

  const reset = (env: Record<string, string> = {}) =>
    runAce(['dev:reset', '--force'], {
      env: {
        NODE_ENV: 'development',
        DATABASE_URL: '',
        DEVNET_STATE_PATH: statePath,
        EMBEDDED_PG_DATA_DIR: dataDir,
        ...env,
      },
    })

  test('deletes the devnet chain and the embedded development database together', async ({
    assert,
  }) => {
    const run = await reset()

    assert.equal(run.code, 0, run.output)
    assert.isFalse(existsSync(statePath))
    assert.isFalse(existsSync(dataDir))
    assert.include(run.output, `removed ${statePath} (devnet chain)`)
    assert.include(run.output, `removed ${dataDir} (development database)`)
  })

  test('refuses, deleting nothing, while a devnet keeps its chain there or the database runs', async ({
    assert,
  }) => {
    await rm(statePath)
    const devnet = await startDevnet({ port: 0, blockTimeMs: null, statePath })
    // postmaster.pid: the server's pid on line 1, its port on line 4.
    await writeFile(join(dataDir, 'postmaster.pid'), `${process.pid}\n${dataDir}\n0\n54329\n`)
    try {
      const run = await reset()

      assert.equal(run.code, 1, run.output)
      assert.include(
        run.output,
        `the devnet chain ${statePath} is in use by process ${process.pid}`
      )
      assert.include(run.output, `the development database ${dataDir} is running`)
      assert.include(run.output, 'stop `npm run dev`')
      assert.isTrue(existsSync(statePath))
      assert.isTrue(existsSync(join(dataDir, 'PG_VERSION')))
    } finally {
      await devnet.stop()
    }
  })

  test('with DATABASE_URL set, resets only the devnet and says the database is left alone', async ({
    assert,
  }) => {
    const run = await reset({
      DATABASE_URL: 'postgres://tollbooth:secret@db.invalid:5432/tollbooth',
    })

    assert.equal(run.code, 0, run.output)
    assert.isFalse(existsSync(statePath))
    assert.isTrue(existsSync(dataDir))
    assert.include(
      run.output,
      'DATABASE_URL is set: dev:reset does not touch that database (db.invalid:5432)'
    )
    assert.notInclude(run.output, 'secret')
  })
})
