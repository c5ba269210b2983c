/*
|--------------------------------------------------------------------------
| Ace entry point
|--------------------------------------------------------------------------
|
| Registers the TypeScript loader, then hands over to bin/console.ts. The
| loader needs Node 24: started by an older node (`node ace …` with the
| machine's own), the same command is run again with the Node 24 that
| `npm install` pins in node_modules/.bin. Plain JavaScript, so that any
| node can read this file.
|
*/
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const REQUIRED_MAJOR = 24
const pinnedNode = fileURLToPath(new URL('./node_modules/.bin/node', import.meta.url))

if (Number(process.versions.node.split('.')[0]) >= REQUIRED_MAJOR) {
  await import('@poppinss/ts-exec')
  await import('./bin/console.js')
} else if (existsSync(pinnedNode)) {
  const child = spawn(pinnedNode, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  })
  const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP']
  const forward = (signal) => child.kill(signal)
  for (const signal of forwarded) process.on(signal, forward)
  child.on('exit', (code, signal) => {
    for (const name of forwarded) process.off(name, forward)
    if (signal) process.kill(process.pid, signal)
    else process.exit(code ?? 1)
  })
} else {
  console.error(
    `Tollbooth needs Node.js >= ${REQUIRED_MAJOR} (this is ${process.version}): run \`npm install\`, which pins Node ${REQUIRED_MAJOR} in node_modules/.bin, or install Node ${REQUIRED_MAJOR}`
  )
  process.exitCode = 1
}
