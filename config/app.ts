import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/core/http'
import { answerBadUrl } from '#core/malformed_requests'

/**
 * The HTTP server. Request ids come from a valid incoming `x-request-id`
 * or are generated (see app/middleware/request_id_middleware.ts); a URL the
 * router cannot decode is answered in JSON too (app/core/malformed_requests.ts).
 */
export const http = defineConfig({
  generateRequestId: true,
  onBadUrl: answerBadUrl,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: false,
  trustProxy: () => false,
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
 * The public base URL of the service ({base_url} in the spec). It names the
 * paid resources in x402 requirements and the Sign-In With Stacks domain.
 */
export const publicUrl = env.get('PUBLIC_URL') ?? `http://localhost:${env.get('PORT') ?? 3333}`
