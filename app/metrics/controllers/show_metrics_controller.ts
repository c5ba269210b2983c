import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { MetricsConfig } from '#metrics/define_config'
import { scrapeMetrics } from '#metrics/scrape'
import { checkScrapeAccess } from '#metrics/scrape_access'

/** GET /metrics: the instance's metrics in Prometheus's text format (docs/operations.md#metrics). */
@inject()
export default class ShowMetricsController {
  constructor(private config: MetricsConfig) {}

  async handle({ request, response }: HttpContext) {
    checkScrapeAccess(this.config, request.header('authorization'))
    const { contentType, text } = await scrapeMetrics()
    response.header('content-type', contentType)
    response.header('cache-control', 'no-store')
    return text
  }
}
