import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '#outbound/define_config'

/**
 * The outbound HTTP client for provider-controlled URLs (docs/outbound-http.md).
 * Outside production, partners run on 127.0.0.1 over plain http; in
 * production only https on port 443 to public addresses is allowed.
 */
const outboundConfig = defineConfig({
  /** ALLOW_PRIVATE_TARGETS; true outside production, false in production unless set. */
  allowPrivateTargets: env.get('ALLOW_PRIVATE_TARGETS') ?? !app.inProduction,
  httpsOnly: app.inProduction,
  /** Any port outside production. */
  allowedPorts: app.inProduction ? [443] : undefined,
  /** Covers DNS, every redirect hop and the body read. */
  timeoutMs: 5_000,
  maxBytes: 1_048_576,
  maxRedirects: 3,
  userAgent: 'tollbooth-outbound',
})

export default outboundConfig
export type { OutboundConfig } from '#outbound/define_config'
