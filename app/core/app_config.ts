import { injectableConfig } from '#core/injectable_config'

/** How long a client may take to send a request (node:http server settings). */
export interface RequestLimits {
  /** The headers must have arrived within this. */
  headersTimeoutMs: number
  /** The whole request, body included, must have arrived within this. */
  requestTimeoutMs: number
  checkIntervalMs: number
}

export interface AppConfigValues {
  /** The public base URL of the service ({base_url} in the spec). */
  publicUrl: string
  requestLimits: RequestLimits
  /** How long a stopping HTTP worker waits for its requests in flight before closing their connections. */
  shutdownGraceMs: number
}

/**
 * The service's own settings, config/app.ts `service` (`publicUrl`, `requestLimits`, `shutdownGraceMs`;
 * `http` is the framework's), bound by CoreProvider: `@inject()` classes
 * take it as an argument.
 */
export class AppConfig extends injectableConfig<AppConfigValues>() {}
