import type { ApplicationService } from '@adonisjs/core/types'
import { MetricsConfig } from '#metrics/define_config'

/**
 * Binds the metrics config (config/metrics.ts) and loads the registry at
 * once: a cluster worker must answer the primary's requests for its metrics
 * from its start, before anything else imports it (app/metrics/registry.ts).
 */
export default class MetricsProvider {
  constructor(protected app: ApplicationService) {}

  async register() {
    this.app.container.bindValue(MetricsConfig, this.app.config.get<MetricsConfig>('metrics'))
    await import('#metrics/registry')
  }
}
