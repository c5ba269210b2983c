import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from './ignitor.js'
import { printStartupFailure } from './startup_failure.js'

createIgnitor()
  .ace()
  .configure(async (app) => {
    // A command that starts the app fails inside ace's own error handler when
    // the configuration is invalid: the same one line there as here below.
    const ace = await app.container.make('ace')
    const fallback = ace.errorHandler
    ace.errorHandler = {
      render: async (error, kernel) => {
        if (!printStartupFailure(error)) await fallback.render(error, kernel)
      },
    }
  })
  .handle(process.argv.splice(2))
  .catch((error) => {
    process.exitCode = 1
    if (!printStartupFailure(error)) prettyPrintError(error)
  })
