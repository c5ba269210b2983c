import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, destination, targets } from '@adonisjs/core/logger'
import type { InferLoggers } from '@adonisjs/core/types'

const logFile = env.get('LOG_FILE')
/** Under ace a command's stdout is its output (`node ace agent:buy --json … | jq`): logs go to stderr. */
const logStream = app.getEnvironment() === 'console' ? process.stderr : process.stdout

/**
 * pino, JSON lines on stdout (stderr under `node ace`), or appended to LOG_FILE
 * (written synchronously, so the file is complete whenever it is read: the test
 * run scans its own). Every HTTP log line carries the request id.
 * Secrets never reach a log: the redact list below is a last line of
 * defence, not a licence to log secret-bearing objects.
 */
const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'tollbooth',
      level: env.get('LOG_LEVEL') ?? (app.inTest ? 'silent' : 'info'),
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'headers.authorization',
          '*.headers.authorization',
          '*.headers["payment-signature"]',
          '*.headers["credit-token"]',
          'privateKey',
          '*.privateKey',
          'secret',
          '*.secret',
          'hmac_secret',
          '*.hmac_secret',
          '*.headers["x-tollbooth-signature"]',
        ],
        censor: '[redacted]',
      },
      ...(logFile
        ? { destination: destination({ dest: logFile, mkdir: true, sync: true }) }
        : {
            transport: {
              targets: targets()
                .pushIf(app.inDev && logStream.isTTY, targets.pretty({ destination: logStream.fd }))
                .pushIf(
                  !(app.inDev && logStream.isTTY),
                  targets.file({ destination: logStream.fd })
                )
                .toArray(),
            },
          }),
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
