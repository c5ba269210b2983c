import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from './ignitor.js'
import { printStartupFailure } from './startup_failure.js'
import { createHttpServer } from '../app/core/malformed_requests.js'
import { AppConfig, type RequestLimits } from '../app/core/app_config.js'

/** config/app.ts `requestLimits`, from AppConfig once the app has booted (before the server is created). */
let requestLimits: RequestLimits

createIgnitor()
  .tap((app) => {
    app.booted(async () => {
      const config = await app.container.make(AppConfig)
      requestLimits = config.requestLimits
    })
  })
  .httpServer()
  .start((handler) => createHttpServer(handler, requestLimits))
  .catch((error) => {
    process.exitCode = 1
    if (!printStartupFailure(error)) prettyPrintError(error)
  })
