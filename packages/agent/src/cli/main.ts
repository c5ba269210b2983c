import { parseArgs, type ParseArgsConfig } from 'node:util'
import { networkFrom } from '@stacks/network'
import { getAddressFromPrivateKey } from '@stacks/transactions'
import { allowedPayToFromEnv, createClient, type Client, type ClientOptions } from '../client.ts'
import {
  AgentError,
  OverCapError,
  PayToNotAllowedError,
  PendingError,
  RefusedError,
  UnreachableError,
} from '../errors.ts'
import type { Feed } from '../discovery.ts'
import { NETWORK_IDS, type NetworkName } from '../x402.ts'
import { entries, record, stateDir, total, type LedgerEntry } from './ledger.ts'
import { formatStx, parseStx } from './stx.ts'

/** The exit code of each kind of failure (the README's table). */
export const EXIT = {
  ok: 0,
  /** Anything else (a bug, an unexpected answer). */
  failed: 1,
  usage: 2,
  unreachable: 3,
  over_cap: 4,
  refused: 5,
  pending: 6,
  paid_without_data: 7,
  network_mismatch: 8,
  malformed_402: 9,
  pay_to_not_allowed: 10,
} as const

const DEFAULT_URL = 'http://127.0.0.1:3333'
/** Per-call cap when `--max` is not given: 0.01 STX. */
const DEFAULT_MAX = '0.01'
const KEY_VARIABLE = 'TOLLBOOTH_PRIVATE_KEY'
/** How long `get` collects a payment still settling before exiting `pending`. */
const DEFAULT_WAIT_SECONDS = 120

/** Where the CLI writes; `fetch` and `clientOptions` let a caller (ace, tests) plug in. */
export interface CliIo {
  env: NodeJS.ProcessEnv
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Extra client options (e.g. a signer instead of the key variable). */
  clientOptions?: Partial<ClientOptions>
  /** A page showing a transaction, printed next to its txid. */
  explorerLink?: (txid: string) => string
  /** The variable naming the Stacks API, for the hint when it is unreachable. */
  stacksApiVariable?: string
}

/** Why the CLI stops: the message for stderr and the exit code. */
class CliStop extends Error {
  readonly exitCode: number
  /** The whole stderr text (a JSON line under --json), not prefixed with `tollbooth:`. */
  readonly verbatim: boolean
  constructor(exitCode: number, message: string, verbatim = false) {
    super(message)
    this.exitCode = exitCode
    this.verbatim = verbatim
  }
}

const USAGE = `usage: tollbooth <command> [options]

  feeds [--query q] [--category c] [--max-price 0.01] [--json]
  get <feed> [--param k=v ...] [--max ${DEFAULT_MAX}] [--budget 0.05] [--agent-name n] [--json]
  spent [--json]

get --wait <seconds> (default ${DEFAULT_WAIT_SECONDS}): how long to collect a payment still settling.

<feed>: a built-in id (whale-alerts), a provider's handle/slug, or a feed URL. Prices in STX.
Environment: TOLLBOOTH_URL (default ${DEFAULT_URL}), TOLLBOOTH_NETWORK (mainnet | testnet | devnet),
${KEY_VARIABLE} (the paying key, never on the command line), TOLLBOOTH_STACKS_API, TOLLBOOTH_STATE.
`

/** Flags that would put a secret in argv (visible in `ps` and shell history). */
const SECRET_FLAG = /^--?(key|private[-_]?key|secret|mnemonic|seed|sk)(=|$)/i

/** Runs one CLI command; resolves to the process's exit code. Never throws for a user error. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const secret = argv.find((arg) => SECRET_FLAG.test(arg))
    if (secret) {
      throw new CliStop(
        EXIT.usage,
        `${secret.split('=')[0]} is refused: a key on the command line is visible to other users and kept in shell history; put it in the ${KEY_VARIABLE} environment variable`
      )
    }
    const [command, ...rest] = argv
    if (command === 'feeds') await feeds(rest, io)
    else if (command === 'get') await get(rest, io)
    else if (command === 'spent') await spent(rest, io)
    else if (
      command === undefined ||
      command === 'help' ||
      command === '--help' ||
      command === '-h'
    ) {
      io.stderr(USAGE)
      return command === undefined ? EXIT.usage : EXIT.ok
    } else throw new CliStop(EXIT.usage, `unknown command "${command}"\n\n${USAGE}`)
    return EXIT.ok
  } catch (error) {
    const stop = toStop(error, io)
    io.stderr(stop.verbatim ? `${stop.message}\n` : `tollbooth: ${stop.message}\n`)
    return stop.exitCode
  }
}

function parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config)
  } catch (error) {
    throw new CliStop(EXIT.usage, `${(error as Error).message}\n\n${USAGE}`)
  }
}

function stx(flag: string, value: string): bigint {
  const amount = parseStx(value)
  if (amount === null) {
    throw new CliStop(
      EXIT.usage,
      `--${flag} takes an amount of STX with at most 6 decimals (1 µSTX), e.g. 0.01; got "${value}"`
    )
  }
  return amount
}

/** TOLLBOOTH_URL, TOLLBOOTH_NETWORK (on a loopback URL, devnet when unset) and TOLLBOOTH_STACKS_API. */
function settings(env: NodeJS.ProcessEnv) {
  const baseUrl = (env.TOLLBOOTH_URL || DEFAULT_URL).replace(/\/+$/, '')
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new CliStop(
      EXIT.usage,
      `TOLLBOOTH_URL must be the service's base URL, e.g. ${DEFAULT_URL}`
    )
  }
  const named = env.TOLLBOOTH_NETWORK
  if (named !== undefined && named !== '' && !(named in NETWORK_IDS)) {
    throw new CliStop(
      EXIT.usage,
      `TOLLBOOTH_NETWORK must be mainnet, testnet or devnet; got "${named}"`
    )
  }
  const host = new URL(baseUrl).hostname
  const loopback = host === 'localhost' || host === '[::1]' || host.startsWith('127.')
  if (!named && !loopback) {
    throw new CliStop(
      EXIT.usage,
      `set TOLLBOOTH_NETWORK (mainnet, testnet or devnet) for ${baseUrl}: only a loopback URL defaults to devnet`
    )
  }
  const network = (named || 'devnet') as NetworkName
  return { baseUrl, network, stacksApiUrl: env.TOLLBOOTH_STACKS_API || undefined }
}

function client(
  io: CliIo,
  caps: Pick<ClientOptions, 'maxPerCallMicrostx' | 'budgetMicrostx' | 'agentName' | 'maxPendingMs'>,
  needsKey: boolean
): { buyer: Client; payer: string } {
  const { baseUrl, network, stacksApiUrl } = settings(io.env)
  const privateKey = io.env[KEY_VARIABLE]
  const signer = io.clientOptions?.signer
  if (needsKey && !privateKey && !signer) {
    throw new CliStop(EXIT.usage, `set ${KEY_VARIABLE} to the private key that pays`)
  }
  const buyer = createClient({
    baseUrl,
    network,
    stacksApiUrl,
    allowedPayTo: allowedPayToFromEnv(io.env),
    ...caps,
    // Listing feeds signs nothing: a signer that cannot sign stands in for a missing key.
    ...(privateKey || signer ? { privateKey } : { signer: noSigner }),
    ...io.clientOptions,
  })
  const payer =
    signer?.address ??
    (privateKey ? getAddressFromPrivateKey(privateKey, networkFrom(network)) : '')
  return { buyer, payer }
}

const noSigner = {
  address: '',
  signTransfer(): Promise<string> {
    throw new CliStop(EXIT.usage, `set ${KEY_VARIABLE} to the private key that pays`)
  },
}

async function feeds(args: string[], io: CliIo) {
  const { values } = parse({
    args,
    options: {
      'query': { type: 'string' },
      'category': { type: 'string' },
      'max-price': { type: 'string' },
      'json': { type: 'boolean' },
    },
  })
  const maxPrice =
    values['max-price'] === undefined ? undefined : stx('max-price', values['max-price'])
  const { buyer } = client(io, { maxPerCallMicrostx: 0n, budgetMicrostx: 0n }, false)
  const found = await buyer.feeds({
    query: values.query,
    category: values.category,
    maxPriceMicrostx: maxPrice,
  })
  if (values.json) {
    io.stdout(`${JSON.stringify(found.map(feedJson))}\n`)
    return
  }
  if (found.length === 0) io.stderr('no feed matches\n')
  for (const feed of found) {
    io.stdout(`${formatStx(feed.priceMicrostx)} STX\t${feed.resource}\t${feed.description ?? ''}\n`)
  }
}

function feedJson(feed: Feed) {
  return {
    resource: feed.resource,
    description: feed.description ?? null,
    tags: feed.tags,
    price_microstx: feed.priceMicrostx.toString(),
    price_stx: formatStx(feed.priceMicrostx),
  }
}

async function get(args: string[], io: CliIo) {
  const { values, positionals } = parse({
    args,
    options: {
      'param': { type: 'string', multiple: true },
      'max': { type: 'string' },
      'budget': { type: 'string' },
      'agent-name': { type: 'string' },
      'wait': { type: 'string' },
      'json': { type: 'boolean' },
    },
    allowPositionals: true,
  })
  if (positionals.length !== 1) {
    throw new CliStop(
      EXIT.usage,
      `get takes one feed, e.g. \`tollbooth get whale-alerts\`\n\n${USAGE}`
    )
  }
  const feed = positionals[0]
  const params: Record<string, string> = {}
  for (const pair of values.param ?? []) {
    const at = pair.indexOf('=')
    if (at < 1) throw new CliStop(EXIT.usage, `--param takes name=value; got "${pair}"`)
    params[pair.slice(0, at)] = pair.slice(at + 1)
  }
  const maxPerCall = stx('max', values.max ?? DEFAULT_MAX)
  const wait = values.wait ?? String(DEFAULT_WAIT_SECONDS)
  if (!/^\d{1,5}$/.test(wait)) {
    throw new CliStop(EXIT.usage, `--wait takes a whole number of seconds; got "${wait}"`)
  }
  const dir = stateDir(io.env)
  const { baseUrl, network } = settings(io.env)
  // --budget caps what this CLI has spent on this network (its ledger, payments of unknown
  // outcome included), this call included.
  let budget = maxPerCall
  if (values.budget !== undefined) {
    const recorded = await entries(dir)
    const here = recorded.filter((entry) => entry.network === network)
    const left = stx('budget', values.budget) - total(here)
    budget = left > 0n ? left : 0n
  }
  const { buyer, payer } = client(
    io,
    {
      maxPerCallMicrostx: maxPerCall,
      budgetMicrostx: budget,
      agentName: values['agent-name'],
      maxPendingMs: Number(wait) * 1000,
    },
    true
  )
  const entry = (
    txid: string | null,
    price: bigint,
    status: LedgerEntry['status'],
    error?: string
  ): LedgerEntry => ({
    at: new Date().toISOString(),
    network,
    baseUrl,
    feed,
    payer,
    txid,
    priceMicrostx: price.toString(),
    status,
    ...(error ? { error } : {}),
  })
  try {
    const purchase = await buyer.get(feed, params)
    await record(dir, entry(purchase.txid, purchase.priceMicrostx, 'paid'))
    const paidBy = purchase.txid
      ? `transaction ${purchase.txid}${link(io, purchase.txid)}`
      : 'from credit'
    io.stderr(`paid ${formatStx(purchase.priceMicrostx)} STX, ${paidBy}\n`)
    io.stdout(
      values.json
        ? `${JSON.stringify(purchase.body)}\n`
        : `${JSON.stringify(purchase.data, null, 2)}\n`
    )
  } catch (error) {
    // This client made one call: what it counts as spent (the service took the payment) or
    // still reserved (sent, outcome unknown) is that call's price; released means nothing moved.
    const { spentMicrostx, reservedMicrostx } = buyer.spent()
    if (spentMicrostx + reservedMicrostx > 0n) {
      const status =
        error instanceof PendingError ? 'pending' : spentMicrostx > 0n ? 'paid' : 'unknown'
      const txid =
        error instanceof AgentError && 'txid' in error && typeof error.txid === 'string'
          ? error.txid
          : null
      const code = error instanceof AgentError ? error.code : 'failed'
      await record(
        dir,
        entry(
          txid,
          spentMicrostx + reservedMicrostx,
          status,
          status === 'pending' ? undefined : code
        )
      )
    }
    if (error instanceof RefusedError) throw refusedStop(error, values.json === true)
    throw error
  }
}

/**
 * A refusal as the service worded it: one line per failed field (a 422's `fields`);
 * under --json, the service's error object and whether nothing was paid, as one JSON line.
 */
function refusedStop(error: RefusedError, json: boolean): CliStop {
  if (json) {
    const { serverCode: code, serverMessage: message, fields } = error
    const line = JSON.stringify({
      error: { code, message, ...(fields.length > 0 ? { fields } : {}) },
      nothing_paid: error.nothingPaid,
      ...(error.txid && !error.nothingPaid ? { txid: error.txid } : {}),
    })
    return new CliStop(EXIT.refused, line, true)
  }
  const fields = error.fields
    .filter((field) => field.message !== error.serverMessage)
    .map((field) => `\n  ${field.field || '(request)'}: ${field.message}`)
  return new CliStop(EXIT.refused, `${refusedMessage(error)}${fields.join('')}`)
}

function refusedMessage(error: RefusedError) {
  return `${error.message}${error.nothingPaid ? ' (nothing paid)' : ''}`
}

async function spent(args: string[], io: CliIo) {
  const { values } = parse({ args, options: { json: { type: 'boolean' } } })
  const dir = stateDir(io.env)
  const list = await entries(dir)
  const taken = list.filter((entry) => entry.status !== 'unknown')
  const unknown = list.filter((entry) => entry.status === 'unknown')
  const sum = total(taken)
  const unknownSum = total(unknown)
  if (values.json) {
    io.stdout(
      `${JSON.stringify({
        spent_microstx: sum.toString(),
        spent_stx: formatStx(sum),
        calls: taken.length,
        unknown_microstx: unknownSum.toString(),
        unknown_stx: formatStx(unknownSum),
        unknown_calls: unknown.length,
        entries: list,
      })}\n`
    )
    return
  }
  io.stdout(`${formatStx(sum)} STX in ${taken.length} paid call${taken.length === 1 ? '' : 's'}\n`)
  if (unknown.length > 0) {
    io.stdout(
      `${formatStx(unknownSum)} STX in ${unknown.length} payment${unknown.length === 1 ? '' : 's'} sent whose outcome is unknown (--budget counts them; look the transactions up)\n`
    )
  }
  for (const entry of list) {
    const notes = [entry.status === 'paid' ? '' : entry.status, entry.error ?? ''].filter(Boolean)
    io.stdout(
      `${entry.at}\t${entry.network}\t${formatStx(BigInt(entry.priceMicrostx))} STX\t${entry.feed}\t${entry.txid ?? 'txid unknown'}${notes.map((note) => `\t${note}`).join('')}\n`
    )
  }
}

function link(io: CliIo, txid: string) {
  return io.explorerLink ? ` (${io.explorerLink(txid)})` : ''
}

/** The message and exit code of whatever stopped the command. */
function toStop(error: unknown, io: CliIo): CliStop {
  if (error instanceof CliStop) return error
  if (error instanceof OverCapError) {
    const flag = error.cap === 'per_call' ? '--max' : '--budget'
    return new CliStop(
      EXIT.over_cap,
      `nothing paid: the price ${formatStx(error.priceMicrostx)} STX is over ${error.cap === 'per_call' ? 'the per-call cap' : 'what is left of the budget'} (${formatStx(error.capMicrostx)} STX); raise ${flag} to buy it`
    )
  }
  if (error instanceof UnreachableError) {
    let baseUrl = DEFAULT_URL
    try {
      baseUrl = settings(io.env).baseUrl
    } catch {
      // The settings were valid when the client was made.
    }
    // The Stacks API answers the nonce (/extended/…) and fee (/v2/…) reads; the service the rest.
    const hint = !/^\/(extended|v2)\//.test(new URL(error.url).pathname)
      ? `is Tollbooth running at ${baseUrl}? start it with \`npm run dev\``
      : `is the Stacks API at ${new URL(error.url).origin} reachable? ${io.stacksApiVariable ?? 'TOLLBOOTH_STACKS_API'} names it`
    return new CliStop(EXIT.unreachable, `${error.message}\n${hint}`)
  }
  if (error instanceof PendingError) {
    const statusUrl = new URL(error.receipt.statusUrl, `${settings(io.env).baseUrl}/`).toString()
    const header = error.receipt.token ? `-H 'x-payment-receipt: ${error.receipt.token}' ` : ''
    const next =
      error.paying === 'top_up'
        ? `the credit is added once it confirms; the feed was not bought: run the command again later\nfollow the top-up with: curl ${header}${statusUrl}`
        : `collect the data later with: curl ${header}${statusUrl}`
    return new CliStop(
      EXIT.pending,
      `${error.paying === 'top_up' ? 'credit top-up ' : ''}transaction ${error.txid}${link(io, error.txid)} is still settling (paid, not confirmed yet)\nreceipt: ${JSON.stringify({ ...error.receipt, statusUrl })}\n${next}`
    )
  }
  if (error instanceof PayToNotAllowedError) {
    return new CliStop(
      EXIT.pay_to_not_allowed,
      `nothing paid: the service asks to pay ${error.payTo}, which is not in TOLLBOOTH_PAY_TO`
    )
  }
  if (error instanceof RefusedError) return new CliStop(EXIT.refused, refusedMessage(error))
  if (error instanceof AgentError && error.code in EXIT) {
    return new CliStop(EXIT[error.code as keyof typeof EXIT], error.message)
  }
  if (error instanceof AgentError) return new CliStop(EXIT.failed, error.message)
  return new CliStop(
    EXIT.failed,
    error instanceof Error ? (error.stack ?? error.message) : String(error)
  )
}
