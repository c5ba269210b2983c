import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { runAce } from '#tests/support/ace'

/** A line of a printed stack trace (plain or as ace's pretty printer draws it). */
const STACK_FRAME = /^\s+(at|⁃ at) /m

/**
 * `node ace …` on a fresh clone: no .env yet (ENV_PATH points the env loader
 * at an empty directory) and none of this test run's variables.
 */
test.group('node ace on a fresh clone, before .env exists', (group) => {
  let emptyEnvDir = ''
  group.setup(async () => {
    emptyEnvDir = await mkdtemp(join(tmpdir(), 'tollbooth-no-env-'))
    return () => rm(emptyEnvDir, { recursive: true, force: true })
  })
  const freshClone = () => ({ bare: true, env: { ENV_PATH: emptyEnvDir } })

  test('`node ace{$self}` lists the commands and exits 0')
    .with(['', ' list'])
    .run(async ({ assert }, argument) => {
      const run = await runAce(argument ? [argument.trim()] : [], freshClone())

      assert.equal(run.code, 0, run.output)
      for (const command of ['dev', 'agent:buy', 'devnet', 'ledger:audit', 'dev:reset']) {
        assert.include(run.stdout, command)
      }
      assert.notInclude(run.output, 'invalid configuration')
    })

  test('`node ace --help` explains how to list them and exits 0', async ({ assert }) => {
    const run = await runAce(['--help'], freshClone())

    assert.equal(run.code, 0, run.output)
    assert.include(run.stdout, 'View list of available commands')
    assert.include(run.stdout, 'node ace list')
    assert.notInclude(run.output, 'invalid configuration')
  })

  test('a command that needs the configuration says what is wrong and how to create .env', async ({
    assert,
  }) => {
    const run = await runAce(['ledger:audit'], freshClone())

    assert.equal(run.code, 1, run.output)
    const lines = run.stderr.trim().split('\n')
    assert.lengthOf(lines, 2, run.output)
    assert.match(lines[0], /^Tollbooth cannot start, invalid configuration: /)
    assert.include(lines[0], 'APP_KEY is required when NODE_ENV=development')
    assert.include(lines[1], `There is no ${join(emptyEnvDir, '.env')} yet`)
    assert.include(lines[1], '`npm run dev` creates it')
    assert.notMatch(run.output, STACK_FRAME)
  })
})
