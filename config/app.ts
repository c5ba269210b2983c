import env from '#start/env'
import app from '@adonisjs/core/services/app'
import proxyAddr from 'proxy-addr'
import { defineConfig } from '@adonisjs/core/http'
import { AppConfig } from '#core/app_config'
import { answerBadUrl } from '#core/malformed_requests'

/**
 * The HTTP server. Request ids come from a valid incoming `x-request-id`
 * or are generated (see app/middleware/request_id_middleware.ts); a URL the
 * router cannot decode is answered in JSON too (app/core/malformed_requests.ts).
 * The client address (`request.ip()`, which rate limits are keyed by) is the
 * connection's peer, or the X-Forwarded-For hop before the trusted proxies
 * when TRUSTED_PROXIES lists them (docs/operations.md); none are by default.
 */
export const http = defineConfig({
  generateRequestId: true,
  onBadUrl: answerBadUrl,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: false,
  trustProxy: proxyAddr.compile(env.get('TRUSTED_PROXIES') ?? []),
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
})

/**
 * The service's own settings (AppConfig, bound by CoreProvider; the rest of
 * this file is the framework's).
 */
export const service = new AppConfig({
  /**
   * How long a client may take to send a request (node:http server settings,
   * applied by app/core/malformed_requests.ts#createHttpServer): a client that
   * trickles its headers or body (slow-loris) is answered 408 request_timeout
   * and disconnected once the limit passes; the limits are checked every
   * `checkIntervalMs`. See docs/operations.md.
   */
  requestLimits: {
    /** The headers must have arrived within this. */
    headersTimeoutMs: 10_000,
    /** The whole request, body included (at most 1 MB), must have arrived within this. */
    requestTimeoutMs: 30_000,
    checkIntervalMs: 1_000,
  },

  /**
   * How long an HTTP worker that was told to stop (SIGTERM) finishes the
   * requests in flight before it closes their connections and exits
   * (bin/http_drain.ts, docs/operations.md#processes): longer than a paid
   * call takes, its upstream fetch and settlement budget included
   * (config/payments.ts `settlementBudgetMs`, 25 s).
   */
  shutdownGraceMs: 30_000,

  /**
   * The public base URL of the service ({base_url} in the spec). It names the
   * paid resources in x402 requirements and the Sign-In With Stacks domain.
   * Required in production (start/env.ts); localhost in development and tests.
   */
  publicUrl: env.get('PUBLIC_URL') ?? `http://localhost:${env.get('PORT') ?? 3333}`,
})
