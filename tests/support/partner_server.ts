import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createMemoryReplayStore,
  nodeHttpVerifier,
  type NodeHttpVerifyResult,
} from '#partner_verifier'

export type PartnerBehaviour = 'json' | 'keyed' | 'hang' | 'error500' | 'html' | 'huge' | 'redirect'

export interface ReceivedCall {
  path: string
  headers: IncomingMessage['headers']
  verification: NodeHttpVerifyResult
}

/**
 * A partner's API on 127.0.0.1, as a provider would run it: every request is
 * checked with the shipped verifier (packages/partner-verifier) against the
 * secret the partner holds, then routed. Behaviours simulate broken partners.
 */
export async function startPartnerServer(options: {
  routes: string[]
  host?: string
  /** The partner's clock (epoch ms), which checks the timestamps: the app's, when tests move it. */
  now?: () => number
}) {
  const replayStore = createMemoryReplayStore()
  const state = {
    url: '',
    /** The secret the partner holds; null until the provider pastes it in. */
    secret: null as string | null,
    behaviour: 'json' as PartnerBehaviour,
    /** Where `redirect` sends the call. */
    redirectTo: '',
    calls: [] as ReceivedCall[],
  }
  /** Waiting for the next call that `hang` holds. */
  let hangWaiters: Array<() => void> = []

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const verification = await nodeHttpVerifier({
      secret: state.secret ?? '-',
      replayStore,
      now: options.now,
    })(request)
    const path = request.url ?? ''
    state.calls.push({ path, headers: request.headers, verification })
    if (!verification.ok) return json(response, 401, { error: verification.reason })
    const pathname = new URL(path, 'http://partner.invalid').pathname
    if (!options.routes.includes(pathname)) return json(response, 404, { error: 'not_found' })

    switch (state.behaviour) {
      case 'hang':
        for (const held of hangWaiters) held()
        hangWaiters = []
        return
      case 'error500':
        return json(response, 500, { error: 'boom' })
      case 'html':
        response.writeHead(200, { 'content-type': 'text/html' })
        return response.end('<html><body>Welcome</body></html>')
      case 'huge': {
        response.writeHead(200, { 'content-type': 'application/json' })
        const chunk = Buffer.alloc(1024 * 1024, 0x20)
        let sent = 0
        const pump = () => {
          while (sent < 50 && response.write(chunk)) sent++
          if (sent < 50) response.once('drain', pump)
          else response.end()
        }
        response.on('error', () => {})
        return pump()
      }
      case 'redirect':
        response.writeHead(302, { location: state.redirectTo })
        return response.end()
      case 'keyed': {
        // An answer keyed by what the buyer asked for, as a price-by-symbol API's is.
        const asked = new URL(path, 'http://partner.invalid').searchParams.values()
        return json(response, 200, {
          prices: Object.fromEntries([...asked].map((value) => [value, 97_000.5])),
        })
      }
      default:
        return json(response, 200, {
          path: pathname,
          query: Object.fromEntries(new URL(path, 'http://partner.invalid').searchParams),
          price_usd: 97_000.5,
        })
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy())
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  state.url = `http://${host}:${(server.address() as AddressInfo).port}`

  return Object.assign(state, {
    /** Resolves once the partner holds a call unanswered (behaviour `hang`); ask before making the call. */
    nextHeldCall: () => new Promise<void>((resolve) => hangWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

export type PartnerServer = Awaited<ReturnType<typeof startPartnerServer>>
