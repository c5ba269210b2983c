import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

/**
 * Streamable HTTP at /mcp, stateless: each request gets a fresh McpServer
 * (all sharing one paying client, hence one budget) and transport. Every
 * request must carry `Authorization: Bearer <token>`: whoever reaches this
 * port spends the operator's STX. Before anything else, its Host (and its
 * Origin, when a browser sent one) must be one of `hostNames` with the
 * listening port: a web page that rebinds its own name to 127.0.0.1 is
 * refused, whatever it holds (DNS rebinding). The SDK's own check in its
 * transport is deprecated and its replacement is Express middleware, so
 * the check is here.
 */
export function createMcpHttpServer(
  newServer: () => McpServer,
  { token, hostNames }: { token: string; hostNames: string[] }
): Server {
  const expected = digest(token)
  const httpServer = createServer((request, response) => {
    void handle(request, response).catch((error) => {
      process.stderr.write(`tollbooth-mcp: ${String(error)}\n`)
      if (!response.headersSent) reply(response, 500, 'internal_error', 'the MCP request failed')
    })
  })
  return httpServer

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const hosts = allowedHosts(hostNames, (httpServer.address() as AddressInfo).port)
    if (!hosts.has(request.headers.host?.toLowerCase() ?? '')) {
      return reply(
        response,
        403,
        'forbidden_host',
        'this server answers only to its own host names'
      )
    }
    if (!isAllowedOrigin(request.headers.origin, hosts)) {
      return reply(
        response,
        403,
        'forbidden_origin',
        'this server answers only to pages from its own host names'
      )
    }
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (url.pathname !== '/mcp')
      return reply(response, 404, 'not_found', 'the MCP endpoint is /mcp')
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]
    if (!given || !timingSafeEqual(digest(given), expected)) {
      response.setHeader('www-authenticate', 'Bearer')
      return reply(response, 401, 'unauthorized', 'a valid operator token is required')
    }
    if (request.method !== 'POST') {
      return reply(response, 405, 'method_not_allowed', 'this stateless server takes POST only')
    }
    const server = newServer()
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    response.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(request, response)
  }
}

/** `name:port` for each name, as a Host header writes them (without the port when it is 80). */
function allowedHosts(names: string[], port: number): Set<string> {
  return new Set(names.map((name) => (port === 80 ? name : `${name}:${port}`)))
}

/** No Origin (not a browser), or a page served from one of `hosts`. */
function isAllowedOrigin(origin: string | undefined, hosts: Set<string>): boolean {
  if (origin === undefined) return true
  try {
    return hosts.has(new URL(origin).host)
  } catch {
    return false
  }
}

/** Equal-length digests, so comparing them takes the same time whatever the token given. */
function digest(value: string) {
  return createHash('sha256').update(value).digest()
}

function reply(response: ServerResponse, status: number, code: string, message: string) {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ error: { code, message } }))
}
