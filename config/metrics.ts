import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { defineConfig } from '#metrics/define_config'

/**
 * GET /metrics (docs/operations.md#metrics): with METRICS_TOKEN set, only a
 * scrape sending it as a bearer token; without it, open outside production
 * and absent (404) in production.
 */
const metricsConfig = defineConfig({
  token: env.get('METRICS_TOKEN'),
  openWithoutToken: !app.inProduction,
})

export default metricsConfig
