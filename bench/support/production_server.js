/**
 * The production build's server (build/bin/server.js) as the benchmarks run it,
 * plus one bare JSON route, `GET /__bench__/bare`, that the 402 path is
 * compared with: same process, same middleware, no work. Plain JavaScript so
 * the child runs the built code without the TypeScript loader.
 */
import { createIgnitor } from '../../build/bin/ignitor.js'
import { createHttpServer } from '../../build/app/core/malformed_requests.js'
import { AppConfig } from '../../build/app/core/app_config.js'

let requestLimits

createIgnitor()
  .tap((app) => {
    app.booted(async () => {
      requestLimits = (await app.container.make(AppConfig)).requestLimits
      const router = await app.container.make('router')
      router.get('/__bench__/bare', () => ({ ok: true }))
    })
  })
  .httpServer()
  .start((handler) => createHttpServer(handler, requestLimits))
  .catch((error) => {
    process.exitCode = 1
    console.error(error)
  })
