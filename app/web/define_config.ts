import { injectableConfig } from '#core/injectable_config'

export interface WebConfigValues {
  /** Cards per page of the marketplace, the providers and a provider's feeds. */
  pageSize: number
  /** The live activity feed and a feed page's recent purchases. */
  activityPollMs: number
  /** A withdrawal's status until it is confirmed or failed. */
  withdrawalPollMs: number
  /** The dashboard's figures and chart. */
  dashboardPollMs: number
}

/** config/web.ts, bound by CoreProvider: `@inject()` classes take it as an argument. */
export class WebConfig extends injectableConfig<WebConfigValues>() {}

export function defineConfig(values: WebConfigValues) {
  return new WebConfig(values)
}
