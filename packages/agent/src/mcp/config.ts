import { isIPv4, isIPv6 } from 'node:net'
import { parseArgs } from 'node:util'
import { allowedPayToFromEnv, creditHostsFromEnv, type ClientOptions } from '../client.ts'
import { AgentError } from '../errors.ts'
import { NETWORK_IDS, type NetworkName } from '../x402.ts'
import { parseStx } from './stx.ts'

export interface McpConfig {
  client: ClientOptions
  /** Set with --http: serve streamable HTTP instead of stdio. */
  http: McpHttpConfig | null
}

export interface McpHttpConfig {
  host: string
  port: number
  token: string
  /** The host names a request's Host (and Origin) may name, with the listening port. */
  hostNames: string[]
}

/** The options of the HTTP transport, meaningless over stdio. */
const HTTP_OPTIONS = ['host', 'port', 'allow-remote', 'allowed-host'] as const

/** The names of this machine's loopback interface, as a Host header writes them. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

/**
 * The server's configuration: the paying key and the caps from the
 * environment (never from arguments, which other processes can read), the
 * transport from argv. HTTP listens on loopback; another --host is refused
 * unless --allow-remote says the operator means it. HTTP never starts
 * without TOLLBOOTH_MCP_TOKEN.
 */
export function readConfig(argv: string[], env: NodeJS.ProcessEnv): McpConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      'http': { type: 'boolean', default: false },
      'port': { type: 'string' },
      'host': { type: 'string' },
      'allow-remote': { type: 'boolean' },
      'allowed-host': { type: 'string', multiple: true },
    },
    strict: true,
  })
  const httpOnly = HTTP_OPTIONS.filter((option) => values[option] !== undefined)
  if (!values.http && httpOnly.length > 0) {
    throw new AgentError(
      'invalid_options',
      `${httpOnly.map((option) => `--${option}`).join(', ')} ${httpOnly.length === 1 ? 'is an option' : 'are options'} of --http: add --http to serve HTTP, or leave ${httpOnly.length === 1 ? 'it' : 'them'} out for stdio`
    )
  }
  const privateKey = required(env, 'TOLLBOOTH_PRIVATE_KEY')
  const network = env.TOLLBOOTH_NETWORK ?? 'mainnet'
  if (!(network in NETWORK_IDS)) {
    throw new AgentError('invalid_options', `TOLLBOOTH_NETWORK must be mainnet, testnet or devnet`)
  }
  const client: ClientOptions = {
    baseUrl: serviceUrl(required(env, 'TOLLBOOTH_URL')),
    network: network as NetworkName,
    privateKey,
    maxPerCallMicrostx: parseStx(required(env, 'TOLLBOOTH_MAX_PER_CALL'), 'TOLLBOOTH_MAX_PER_CALL'),
    budgetMicrostx: parseStx(required(env, 'TOLLBOOTH_BUDGET'), 'TOLLBOOTH_BUDGET'),
    stacksApiUrl: env.TOLLBOOTH_STACKS_API || undefined,
    agentName: env.TOLLBOOTH_AGENT_NAME || undefined,
    allowedPayTo: allowedPayToFromEnv(env),
    ...(env.TOLLBOOTH_CREDIT_TOP_UP
      ? {
          credit: {
            topUpMicrostx: parseStx(env.TOLLBOOTH_CREDIT_TOP_UP, 'TOLLBOOTH_CREDIT_TOP_UP'),
          },
          creditHosts: creditHostsFromEnv(env),
        }
      : {}),
  }
  if (!values.http) return { client, http: null }

  const portText = values.port ?? '3030'
  const port = Number(portText)
  if (!/^\d{1,5}$/.test(portText) || port > 65_535) {
    throw new AgentError('invalid_options', `--port must be a port number, not "${portText}"`)
  }
  const host = values.host ?? '127.0.0.1'
  if (!isLoopback(host) && !values['allow-remote']) {
    throw new AgentError(
      'invalid_options',
      `--host ${host} is not a loopback address: whoever reaches it with the token spends this wallet. ` +
        'Add --allow-remote to listen there anyway (behind TLS and a firewall you trust).'
    )
  }
  const token = required(env, 'TOLLBOOTH_MCP_TOKEN')
  if (token.length < 16) {
    throw new AgentError('invalid_options', 'TOLLBOOTH_MCP_TOKEN must be at least 16 characters')
  }
  const hostNames = new Set(LOOPBACK_NAMES)
  // A wildcard address is no name a client connects to; --allowed-host names those.
  if (host !== '0.0.0.0' && host !== '::') hostNames.add(hostName(host, '--host'))
  for (const name of values['allowed-host'] ?? []) hostNames.add(hostName(name, '--allowed-host'))
  return { client, http: { host, port, token, hostNames: [...hostNames] } }
}

export function isLoopback(host: string) {
  return host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'))
}

/** A host name or address as a Host header writes it: lower case, an IPv6 address in brackets. */
function hostName(value: string, option: string): string {
  if (isIPv6(value)) return `[${value.toLowerCase()}]`
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(value)) {
    throw new AgentError(
      'invalid_options',
      `${option} must be a host name or address, not "${value}"`
    )
  }
  return value.toLowerCase()
}

/** The service's URL without trailing slashes (feed URLs are built on it), or an error naming it. */
function serviceUrl(value: string): string {
  if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol)) {
    throw new AgentError(
      'invalid_options',
      `TOLLBOOTH_URL must be the service's http(s) URL, such as https://tollbooth.example, not "${value}"`
    )
  }
  return value.replace(/\/+$/, '')
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]
  if (!value) throw new AgentError('invalid_options', `${name} is not set`)
  return value
}
