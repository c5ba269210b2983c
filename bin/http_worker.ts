import type { Server } from 'node:http'
import { prettyPrintError } from '@adonisjs/core'
import type { Logger } from '@adonisjs/core/logger'
import { createIgnitor } from './ignitor.js'
import { httpDrain } from './http_drain.js'
import { printStartupFailure } from './startup_failure.js'
import { createHttpServer } from '../app/core/malformed_requests.js'
import { AppConfig } from '../app/core/app_config.js'

/** config/app.ts `service` and the logger, once the app has booted (before the server is created). */
let config: AppConfig
let logger: Logger
let drain: ReturnType<typeof httpDrain> | undefined

createIgnitor()
  .tap((app) => {
    app.booted(async () => {
      config = await app.container.make(AppConfig)
      logger = await app.container.make('logger')
    })
    // Registered once the server listens, after the framework's own terminating hook that closes
    // it and waits for its connections: terminating hooks run last-registered first, so the drain
    // begins before that wait.
    app.ready(() => {
      app.terminating(() => drain?.begin())
    })
  })
  .httpServer()
  .start((handler) => {
    const server: Server = createHttpServer(handler, config.requestLimits)
    drain = httpDrain(server, config.shutdownGraceMs, (open) =>
      logger.warn(
        { open_requests: open, grace_ms: config.shutdownGraceMs },
        'shutdown grace over: closing the connections still open'
      )
    )
    return server
  })
  .catch((error) => {
    process.exitCode = 1
    if (!printStartupFailure(error)) prettyPrintError(error)
  })
