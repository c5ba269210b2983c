import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { test } from '@japa/runner'
import { startInstance } from '#tests/support/cluster'

/** The pid of the primary's one HTTP worker (its other child runs `scheduler:run`). */
async function webWorkerOf(primary: number) {
  const { stdout } = await promisify(execFile)('ps', [
    '-o',
    'pid=,args=',
    '--ppid',
    String(primary),
  ])
  const line = stdout.split('\n').find((row) => row.trim() !== '' && !row.includes('scheduler:run'))
  return Number(line!.trim().split(/\s+/)[0])
}

/** The time a line of the primary's log was written at. */
const loggedAt = (line: string) => Date.parse(line.split(' ')[0])

test.group('npm start: a worker that keeps dying', () => {
  test('is started again at once the first time, then after a growing delay', async ({
    assert,
    cleanup,
  }) => {
    const instance = await startInstance(1)
    cleanup(async () => {
      await instance.stop()
    })

    const pids = [await webWorkerOf(instance.child.pid!)]
    const exits = []
    const ups = []
    for (const inARow of ['', '2 times', '3 times']) {
      process.kill(pids.at(-1)!, 'SIGKILL')
      exits.push(await instance.printed(new RegExp(`web-1 exited .*${inARow}`)))
      const fresh = `(?!(?:${pids.join('|')})\\))`
      const up = await instance.printed(new RegExp(`web-1 is up again \\(pid ${fresh}\\d+\\)`))
      ups.push(up)
      pids.push(Number(/pid (\d+)\)/.exec(up)![1]))
    }

    assert.match(exits[0], /web-1 exited \(signal SIGKILL\): starting another$/)
    assert.match(exits[1], /2 times in a row soon after starting: starting another in 1 s$/)
    assert.match(exits[2], /3 times in a row soon after starting: starting another in 2 s$/)
    // Not sooner than the delay (the primary's own timestamps; a loaded machine only adds to it).
    assert.isAtLeast(loggedAt(ups[1]) - loggedAt(exits[1]), 1_000)
    assert.isAtLeast(loggedAt(ups[2]) - loggedAt(exits[2]), 2_000)
    assert.equal(await instance.stop(), 0)
  }).timeout(60_000)
})
