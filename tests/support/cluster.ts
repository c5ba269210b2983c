import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import app from '@adonisjs/core/services/app'
import { testDatabaseUrl } from '#tests/support/ace'

/** A port nothing listens on now. */
export async function freePort() {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface RunningProcess {
  child: ChildProcess
  /** Everything it printed so far (stdout then stderr, interleaved). */
  output(): string
  /** Resolves with the first line matching `pattern`; rejects if the process exits first. */
  printed(pattern: RegExp): Promise<string>
  /** SIGTERM, then its exit code (or signal). */
  stop(): Promise<number | string | null>
  /** Ctrl-C in the terminal that started it: SIGINT to every process of its group (started with `ownGroup`). */
  interrupt(): void
}

/**
 * A long-running process of the app on the test database, as an operator
 * starts it; with `ownGroup`, in a process group of its own, as a terminal's
 * foreground job (else in the test run's: Ctrl-C on the run stops it too).
 */
function run(args: string[], env: Record<string, string>, ownGroup = false): RunningProcess {
  const child = spawn(process.execPath, args, {
    cwd: app.appRoot.pathname,
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: testDatabaseUrl(), ...env },
    detached: ownGroup,
  })
  let output = ''
  const waiters: Array<() => void> = []
  const onData = (chunk: Buffer) => {
    output += chunk
    for (const waiter of waiters) waiter()
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal))
  )
  return {
    child,
    output: () => output,
    printed(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = output.split('\n').find((candidate) => pattern.test(candidate))
          if (line !== undefined) resolve(line)
        }
        waiters.push(check)
        check()
        void exited.then(() => reject(new Error(`exited before printing ${pattern}:\n${output}`)))
      })
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
    interrupt() {
      process.kill(-child.pid!, 'SIGINT')
    },
  }
}

/**
 * `npm start` (bin/server.ts) with `webWorkers` HTTP workers and its
 * scheduler on a free port, once every worker listens; `url` is its base URL.
 * `ownGroup`: in a process group of its own (see `interrupt()`).
 */
export async function startInstance(
  webWorkers: number,
  env: Record<string, string> = {},
  options: { ownGroup?: boolean } = {}
) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const instance = run(
    ['--import=@poppinss/ts-exec', 'bin/server.ts'],
    {
      WEB_CONCURRENCY: String(webWorkers),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      ...env,
    },
    options.ownGroup
  )
  await instance.printed(/ready: \d+ HTTP worker/)
  return { ...instance, url }
}

/** A scheduler of its own, as another instance runs it: `node ace scheduler:run` (ace.js loads TypeScript itself). */
export function startScheduler(env: Record<string, string> = {}) {
  return run(['ace.js', 'scheduler:run'], env)
}
