import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TestServer {
  port: number
  /** `http://127.0.0.1:<port>` */
  url: string
  /** TCP connections accepted so far. */
  connections: number
  /** Requests received so far, in order. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }>
  /** Resolves once `count` requests have reached the handler. */
  received(count: number): Promise<void>
  close(): Promise<void>
}

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void

/** A real HTTP server on 127.0.0.1 and an ephemeral port, counting what reaches it. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const waiters: { count: number; resolve: () => void }[] = []
  const server = createServer((request, response) => {
    state.requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
    })
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      handler(request, response, Buffer.concat(chunks).toString('utf8'))
      for (const waiter of waiters.filter(({ count }) => count <= state.requests.length)) {
        waiter.resolve()
      }
    })
  })
  const state: TestServer = {
    port: 0,
    url: '',
    connections: 0,
    requests: [],
    received: (count) =>
      new Promise((resolve) => {
        if (state.requests.length >= count) return resolve()
        waiters.push({ count, resolve })
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  server.on('connection', () => state.connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.port = (server.address() as AddressInfo).port
  state.url = `http://127.0.0.1:${state.port}`
  return state
}

/** A port nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = await startServer(() => {})
  await server.close()
  return server.port
}
