process.env.NODE_ENV = 'test'
/*
| Every log line of the run — this process and the `node ace` processes it
| starts — is appended to one file at debug level, and scanned for secrets when
| the run ends (tests/bootstrap.ts).
*/
process.env.LOG_FILE ??= new URL(
  `../tmp/test-logs/run-${Date.now()}-${process.pid}.log`,
  import.meta.url
).pathname

import { prettyPrintError } from '@adonisjs/core'
import { configure, processCLIArgs, run } from '@japa/runner'
import { createIgnitor } from './ignitor.js'

createIgnitor()
  .testRunner()
  .configure(async (app) => {
    const { runnerHooks, afterTerminate, ...config } = await import('../tests/bootstrap.js')

    processCLIArgs(process.argv.splice(2))
    configure({
      ...app.rcFile.tests,
      ...config,
      setup: runnerHooks.setup,
      teardown: runnerHooks.teardown.concat([() => app.terminate()], afterTerminate),
    })
  })
  .run(() => run())
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
