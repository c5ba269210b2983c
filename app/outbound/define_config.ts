import { injectableConfig } from '#core/injectable_config'

export interface OutboundConfigValues {
  /** Plain http and loopback/private addresses are accepted (development and tests only). */
  allowPrivateTargets: boolean
  /** Only https URLs (production). */
  httpsOnly: boolean
  /** Ports a URL may name (production: [443]); any when unset. */
  allowedPorts?: number[]
  /** Covers DNS, every redirect hop and the body read. */
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
  userAgent: string
}

/** config/outbound.ts, bound by OutboundProvider: `@inject()` classes take it as an argument. */
export class OutboundConfig extends injectableConfig<OutboundConfigValues>() {}

export function defineConfig(values: OutboundConfigValues) {
  return new OutboundConfig(values)
}
