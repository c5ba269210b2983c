import { parseArgs } from 'node:util'
import { allowedPayToFromEnv, type ClientOptions } from '../client.ts'
import { AgentError } from '../errors.ts'
import { NETWORK_IDS, type NetworkName } from '../x402.ts'
import { parseStx } from './stx.ts'

export interface McpConfig {
  client: ClientOptions
  /** Set with --http: serve streamable HTTP instead of stdio. */
  http: { host: string; port: number; token: string } | null
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

/**
 * The server's configuration: the paying key and the caps from the
 * environment (never from arguments, which other processes can read), the
 * transport from argv. HTTP listens on loopback unless --host names another
 * address, and never starts without TOLLBOOTH_MCP_TOKEN.
 */
export function readConfig(argv: string[], env: NodeJS.ProcessEnv): McpConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      http: { type: 'boolean', default: false },
      port: { type: 'string', default: '3030' },
      host: { type: 'string', default: '127.0.0.1' },
    },
    strict: true,
  })
  const privateKey = required(env, 'TOLLBOOTH_PRIVATE_KEY')
  const network = env.TOLLBOOTH_NETWORK ?? 'mainnet'
  if (!(network in NETWORK_IDS)) {
    throw new AgentError('invalid_options', `TOLLBOOTH_NETWORK must be mainnet, testnet or devnet`)
  }
  const client: ClientOptions = {
    baseUrl: required(env, 'TOLLBOOTH_URL'),
    network: network as NetworkName,
    privateKey,
    maxPerCallMicrostx: parseStx(required(env, 'TOLLBOOTH_MAX_PER_CALL'), 'TOLLBOOTH_MAX_PER_CALL'),
    budgetMicrostx: parseStx(required(env, 'TOLLBOOTH_BUDGET'), 'TOLLBOOTH_BUDGET'),
    stacksApiUrl: env.TOLLBOOTH_STACKS_API || undefined,
    agentName: env.TOLLBOOTH_AGENT_NAME || undefined,
    allowedPayTo: allowedPayToFromEnv(env),
  }
  if (!values.http) return { client, http: null }

  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new AgentError('invalid_options', `--port must be a port number, not "${values.port}"`)
  }
  const token = required(env, 'TOLLBOOTH_MCP_TOKEN')
  if (token.length < 16) {
    throw new AgentError('invalid_options', 'TOLLBOOTH_MCP_TOKEN must be at least 16 characters')
  }
  return { client, http: { host: values.host, port, token } }
}

export function isLoopback(host: string) {
  return LOOPBACK.has(host)
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]
  if (!value) throw new AgentError('invalid_options', `${name} is not set`)
  return value
}
