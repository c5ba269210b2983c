#!/usr/bin/env node
import type { AddressInfo } from 'node:net'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { createClient } from '../client.ts'
import { AgentError } from '../errors.ts'
import { isLoopback, readConfig } from './config.ts'
import { createMcpHttpServer } from './http.ts'
import { createMcpServer } from './server.ts'

/**
 * `tollbooth-mcp [--http [--port N] [--host ADDR --allow-remote] [--allowed-host NAME]…]`:
 * the MCP server over stdio or streamable HTTP.
 */
async function main() {
  const config = readConfig(process.argv.slice(2), process.env)
  const client = createClient(config.client)
  const newServer = () =>
    createMcpServer(client, {
      baseUrl: config.client.baseUrl,
      maxPerCallMicrostx: BigInt(config.client.maxPerCallMicrostx),
    })
  if (!config.http) {
    await newServer().connect(new StdioServerTransport())
    return
  }
  const { host, port, token, hostNames } = config.http
  if (!isLoopback(host)) {
    process.stderr.write(`warning: listening on ${host}, reachable beyond this machine\n`)
  }
  const server = createMcpHttpServer(newServer, { token, hostNames })
  server.on('error', (error) => fail(`cannot listen on ${host}:${port}: ${error.message}`))
  server.listen(port, host, () => {
    const address = server.address() as AddressInfo
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
    process.stderr.write(`tollbooth-mcp listening on http://${shown}:${address.port}/mcp\n`)
  })
}

main().catch((error) => fail(error instanceof AgentError ? error.message : String(error)))

function fail(message: string): never {
  // Logs go to stderr: stdout is the stdio transport's.
  process.stderr.write(`tollbooth-mcp: ${message}\n`)
  process.exit(1)
}
