import { injectableConfig } from '#core/injectable_config'

export interface MetricsConfigValues {
  /** The bearer token a scrape of GET /metrics must send (METRICS_TOKEN); unset → see `openWithoutToken`. */
  token?: string
  /** Without a token: open (development, tests) or no such route (production). */
  openWithoutToken: boolean
}

/** config/metrics.ts, bound by MetricsProvider: `@inject()` classes take it as an argument. */
export class MetricsConfig extends injectableConfig<MetricsConfigValues>() {}

export function defineConfig(values: MetricsConfigValues) {
  return new MetricsConfig(values)
}
