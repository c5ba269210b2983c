import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from './ignitor.js'
import { printStartupFailure } from './startup_failure.js'

createIgnitor()
  .ace()
  .handle(process.argv.splice(2))
  .catch((error) => {
    process.exitCode = 1
    if (!printStartupFailure(error)) prettyPrintError(error)
  })
