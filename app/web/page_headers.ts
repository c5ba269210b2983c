import type { HttpContext } from '@adonisjs/core/http'
import vite from '@adonisjs/vite/services/main'

/**
 * The pages' Content-Security-Policy, built once. Scripts load only from
 * this origin and nothing inline runs: the templates have no inline script
 * or handler (the site context is a JSON data block, which is never run), so
 * a script injected into a page — the way to the session token in
 * localStorage — does not run, and no nonce is needed to tell ours apart.
 * Scripts come from `/assets/` in production and from Vite's dev server
 * (same origin: `/@vite/client`, `/resources/…`) in development and tests,
 * whose client also opens a websocket on a port of its own (hot reload):
 * `ws:` is allowed there only. Styles: our stylesheet, and inline `<style>`
 * elements because @stacks/connect's wallet picker injects its own; the
 * templates carry no inline style (a test keeps it so), and a style can
 * fetch nothing from elsewhere (images, fonts and connections: this origin,
 * and the `data:` icons), so it cannot carry a page's content away.
 */
function contentSecurityPolicy(devServer: boolean) {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    devServer ? "connect-src 'self' ws:" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

const POLICY = contentSecurityPolicy(false)
const DEV_SERVER_POLICY = contentSecurityPolicy(true)

/**
 * What every page answers with besides its HTML: the policy above, never
 * framed by another site (no clickjacking of a withdrawal), no content-type
 * guessing, and no page address sent to other sites. Error pages too
 * (`renderPage` in app/exceptions/handler.ts).
 */
export function setPageHeaders(response: HttpContext['response']) {
  response.header('content-security-policy', vite.useDevServer ? DEV_SERVER_POLICY : POLICY)
  response.header('x-frame-options', 'DENY')
  response.header('x-content-type-options', 'nosniff')
  response.header('referrer-policy', 'same-origin')
}
