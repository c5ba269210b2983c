import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from './ignitor.js'
import { printStartupFailure } from './startup_failure.js'
import { createHttpServer } from '../app/core/malformed_requests.js'

createIgnitor()
  .httpServer()
  .start((handler) => createHttpServer(handler))
  .catch((error) => {
    process.exitCode = 1
    if (!printStartupFailure(error)) prettyPrintError(error)
  })
