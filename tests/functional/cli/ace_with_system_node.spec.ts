import { test } from '@japa/runner'
import { pathWithoutNodeModules, runAce, systemNode } from '#tests/support/ace'

/**
 * `node ace …` typed in a shell outside npm: the machine's own node (Node 20
 * here), no node_modules/.bin on the PATH. It must behave as under Node 24.
 */
test.group('node ace started by the machine’s own node', () => {
  const asShell = () => ({ node: systemNode(), env: { PATH: pathWithoutNodeModules() } })

  test('lists the commands and exits 0', async ({ assert }) => {
    const run = await runAce(['list'], asShell())

    assert.equal(run.code, 0, run.output)
    assert.include(run.output, 'agent:buy')
    assert.include(run.output, 'ledger:audit')
    assert.notInclude(run.output, 'ERR_UNKNOWN_FILE_EXTENSION')
  })

  test('passes a failing command’s exit code through', async ({ assert }) => {
    const run = await runAce(['no:such:command'], asShell())

    assert.equal(run.code, 1, run.output)
    assert.include(run.output, 'Command "no:such:command" is not defined')
  })
})
