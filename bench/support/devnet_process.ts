import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

/**
 * `node ace devnet` in a child process, so the devnet's own transaction
 * checks (one signature recovery per payment) run on another core and are not
 * billed to the service being measured — as with a real Stacks node.
 */
export async function startDevnetProcess(options: { fund: string[]; blockTimeMs: number }) {
  const child = spawn(
    process.execPath,
    [
      // The same loader flags as this process (--import=@poppinss/ts-exec): the TypeScript
      // hooks are in place before ace.js imports bin/console.ts.
      ...process.execArgv,
      'ace',
      'devnet',
      '--port=0',
      `--block-time=${options.blockTimeMs}`,
      ...options.fund.map((address) => `--fund=${address}`),
    ],
    {
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    }
  )
  const lines = createInterface({ input: child.stdout })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the devnet process did not start in 30 s')),
      30_000
    )
    child.once('exit', (code) => reject(new Error(`the devnet process exited with ${code}`)))
    lines.on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
  })
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return
      child.kill('SIGINT')
      await once(child, 'exit')
    },
  }
}
