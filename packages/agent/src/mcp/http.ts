import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

/**
 * Streamable HTTP at /mcp, stateless: each request gets a fresh McpServer
 * (all sharing one paying client, hence one budget) and transport. Every
 * request must carry `Authorization: Bearer <token>`: whoever reaches this
 * port spends the operator's STX.
 */
export function createMcpHttpServer(newServer: () => McpServer, token: string): Server {
  const expected = digest(token)
  return createServer((request, response) => {
    void handle(request, response).catch((error) => {
      process.stderr.write(`tollbooth-mcp: ${String(error)}\n`)
      if (!response.headersSent) reply(response, 500, 'internal_error', 'the MCP request failed')
    })
  })

  async function handle(request: IncomingMessage, response: ServerResponse) {
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

/** Equal-length digests, so comparing them takes the same time whatever the token given. */
function digest(value: string) {
  return createHash('sha256').update(value).digest()
}

function reply(response: ServerResponse, status: number, code: string, message: string) {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ error: { code, message } }))
}
