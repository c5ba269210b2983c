import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Clock } from '#core/clock'
import type { Resolver } from '#outbound/resolver'
import { outboundClient, swapOutboundClient } from '#tests/support/outbound'

/** The names a LocalSite answers for; useLocalSiteClient resolves them to 127.0.0.1. */
export const SITE_HOST = 'example.test'
export const WWW_SITE_HOST = 'www.example.test'

export interface LocalSite {
  port: number
  /** `http://example.test:<port>` */
  origin: string
  /** `http://www.example.test:<port>` */
  wwwOrigin: string
  /** Requests received so far, in order. */
  requests: Array<{ host: string; url: string }>
  close(): Promise<void>
}

/**
 * A provider's website stand-in: a real HTTP server on 127.0.0.1 and an
 * ephemeral port. The handler sees every request (`request.headers.host`
 * tells example.test from www.example.test); one that never answers hangs.
 */
export async function startLocalSite(
  handler: (request: IncomingMessage, response: ServerResponse) => void
): Promise<LocalSite> {
  const server = createServer((request, response) => {
    site.requests.push({ host: request.headers.host ?? '', url: request.url ?? '' })
    handler(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const site: LocalSite = {
    port,
    origin: `http://${SITE_HOST}:${port}`,
    wwwOrigin: `http://${WWW_SITE_HOST}:${port}`,
    requests: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return site
}

/** Answers JSON (a value, serialised) with a status. */
export function sendJson(response: ServerResponse, value: unknown, status = 200) {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(value))
}

const siteDns: Resolver = async (hostname) => {
  if (hostname === SITE_HOST || hostname === WWW_SITE_HOST) {
    return [{ address: '127.0.0.1', family: 4 }]
  }
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
}

/**
 * Swaps the app's OutboundClient for one that resolves example.test and
 * www.example.test to 127.0.0.1 (plain http and loopback allowed, no DNS),
 * timed out by `clock`.
 */
export function useLocalSiteClient(clock: Clock = new Clock()) {
  const client = outboundClient({
    allowPrivateTargets: true,
    httpsOnly: false,
    resolve: siteDns,
    clock,
  })
  return { client, restore: swapOutboundClient(client) }
}
