import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { deserializePayload } from '@stacks/transactions'
import type { Block, ChainState } from './chain_state.js'
import type { DevnetAccount } from './devnet_accounts.js'
import {
  INJECTABLE_STATUSES,
  type FaultInjector,
  type InjectedStatus,
  type TransactionFault,
} from './fault_injector.js'
import {
  hiroNonces,
  hiroStatus,
  hiroStxBalance,
  hiroTransaction,
  hiroTransactionNotFound,
  nodeAccount,
  nodeFeeEstimate,
  nodeInfo,
  with0x,
  type JsonObject,
} from './hiro_shapes.js'
import type { HiroTransaction, HiroTransactionList } from '../reference/hiro_api.js'
import { isTestnetPrincipal } from './principals.js'
import {
  PAGE_SECURITY_HEADERS,
  transactionNotFoundPage,
  transactionPage,
} from './transaction_page.js'
import type { AdmissionResult } from './transaction_admission.js'

/** What the HTTP layer needs from the devnet; it holds no chain logic itself. */
export interface DevnetBackend {
  state: ChainState
  faults: FaultInjector
  accounts: readonly DevnetAccount[]
  /** Runs admission and, when accepted, puts the transaction in the mempool (and saves it). */
  submit(bytes: Uint8Array): Promise<AdmissionResult>
  mine(): Promise<Block>
}

export interface DevnetServerOptions {
  /** How long a request hit by a timeout fault is held before its socket is destroyed. */
  hangMs: number
  /** Schedules the drop of a held request; default a real, unref'd timer. */
  hangTimer?: HangTimer
  maxBodyBytes?: number
}

/** Runs `callback` after `ms`, like setTimeout; returns a function cancelling it. */
export type HangTimer = (callback: () => void, ms: number) => () => void

const realHangTimer: HangTimer = (callback, ms) => {
  const timer = setTimeout(callback, ms)
  timer.unref()
  return () => clearTimeout(timer)
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024
const HEX = /^(?:[0-9a-fA-F]{2})*$/
const TXID = /^(?:0x)?([0-9a-fA-F]{64})$/
/** `POST /devnet/faults` kinds that apply to the next admitted transactions. */
const TRANSACTION_FAULT_KINDS: Record<string, TransactionFault> = {
  abort_next: 'abort',
  report_dropped: 'report_dropped',
  report_unknown: 'report_unknown',
}

/** A JSON answer, an HTML page (`html`) or plain text (`text`). */
type Reply =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; html: string }
  | { status: number; text: string }

interface RequestContext {
  req: IncomingMessage
  url: URL
  params: string[]
}

interface Route {
  method: 'GET' | 'POST' | 'DELETE'
  pattern: RegExp
  handle: (context: RequestContext) => Reply | Promise<Reply>
}

class HttpError extends Error {
  readonly status: number
  readonly body: JsonObject

  constructor(status: number, body: JsonObject) {
    super(String(body.error))
    this.status = status
    this.body = body
  }
}

export class DevnetServer {
  readonly #backend: DevnetBackend
  readonly #hangMs: number
  readonly #hangTimer: HangTimer
  readonly #maxBodyBytes: number
  readonly #server: Server
  readonly #routes: Route[]
  /** Held sockets, each with the function cancelling its drop. */
  readonly #hanging = new Map<Socket, () => void>()

  constructor(backend: DevnetBackend, options: DevnetServerOptions) {
    this.#backend = backend
    this.#hangMs = options.hangMs
    this.#hangTimer = options.hangTimer ?? realHangTimer
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    this.#routes = this.#defineRoutes()
    this.#server = createServer((req, res) => {
      this.#dispatch(req, res).catch((error: unknown) => {
        sendJson(res, 500, { error: 'internal devnet error', message: String(error) })
      })
    })
  }

  /** Resolves with the port actually bound (useful with port 0). */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject)
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject)
        const address = this.#server.address()
        resolve(typeof address === 'object' && address ? address.port : port)
      })
    })
  }

  close(): Promise<void> {
    for (const [socket, cancelDrop] of this.#hanging) {
      cancelDrop()
      socket.destroy()
    }
    this.#hanging.clear()
    return new Promise((resolve) => {
      if (!this.#server.listening) return resolve()
      this.#server.close(() => resolve())
      this.#server.closeAllConnections()
    })
  }

  async #dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://devnet.invalid')
    const path = url.pathname
    // Faults stand for a failing node: the admin routes and the explorer pages are not the node.
    const isNotNode = path === '/devnet' || path.startsWith('/devnet/') || path.startsWith('/txid/')

    const fault = isNotNode ? null : this.#backend.faults.take(path)
    if (fault?.kind === 'timeout') return this.#hang(req)
    if (fault?.kind === 'status') {
      req.resume()
      return sendInjectedStatus(res, path, fault.status, fault.retryAfterSeconds)
    }

    if (req.method === 'OPTIONS') {
      req.resume()
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': 'content-type',
      })
      res.end()
      return
    }

    const matching = this.#routes
      .map((route) => ({ route, match: route.pattern.exec(path) }))
      .filter((candidate) => candidate.match !== null)
    if (matching.length === 0) {
      req.resume()
      return sendJson(res, 404, { error: 'not found', path })
    }
    const hit = matching.find((candidate) => candidate.route.method === req.method)
    if (!hit || !hit.match) {
      req.resume()
      const allow = matching.map((candidate) => candidate.route.method).join(', ')
      return sendJson(res, 405, { error: 'method not allowed', allow }, { allow })
    }

    let reply: Reply
    try {
      const params = hit.match.slice(1).map((param) => decodeURIComponent(param))
      reply = await hit.route.handle({ req, url, params })
    } catch (error) {
      req.resume()
      if (error instanceof HttpError) {
        reply = { status: error.status, body: error.body }
      } else if (error instanceof URIError) {
        reply = { status: 400, body: { error: 'malformed path', path } }
      } else {
        throw error
      }
    }
    if (fault?.kind === 'lost_answer') {
      if (fault.status === null) return this.#hang(req)
      return sendInjectedStatus(res, path, fault.status, null)
    }
    if ('html' in reply) return sendHtml(res, reply.status, reply.html)
    if ('text' in reply) return sendText(res, reply.status, reply.text)
    sendJson(res, reply.status, reply.body, reply.headers)
  }

  /** Holds the request unanswered, like a node that stopped responding. */
  #hang(req: IncomingMessage): void {
    req.resume()
    const socket = req.socket
    const cancelDrop = this.#hangTimer(() => socket.destroy(), this.#hangMs)
    const released = this.#backend.faults.holding()
    this.#hanging.set(socket, cancelDrop)
    socket.once('close', () => {
      cancelDrop()
      this.#hanging.delete(socket)
      released()
    })
  }

  #defineRoutes(): Route[] {
    const { state } = this.#backend
    return [
      { method: 'POST', pattern: /^\/v2\/transactions\/?$/, handle: (c) => this.#broadcast(c) },
      { method: 'GET', pattern: /^\/v2\/info\/?$/, handle: () => ok(nodeInfo(state)) },
      { method: 'GET', pattern: /^\/v2\/fees\/transfer\/?$/, handle: () => ok(1) },
      {
        method: 'POST',
        pattern: /^\/v2\/fees\/transaction\/?$/,
        handle: (c) => this.#feeEstimate(c),
      },
      {
        method: 'GET',
        pattern: /^\/v2\/accounts\/([^/]+)\/?$/,
        handle: ({ params }) => ok(nodeAccount(state, principalParam(params[0]))),
      },
      { method: 'GET', pattern: /^\/extended\/?$/, handle: () => ok(hiroStatus(state)) },
      {
        method: 'GET',
        pattern: /^\/extended\/v1\/status\/?$/,
        handle: () => ok(hiroStatus(state)),
      },
      {
        method: 'GET',
        pattern: /^\/extended\/v1\/tx\/multiple\/?$/,
        handle: ({ url }) => this.#multipleTransactions(url),
      },
      {
        method: 'GET',
        pattern: /^\/extended\/v1\/tx\/([^/]+)\/?$/,
        handle: ({ params }) => this.#transaction(params[0]),
      },
      {
        method: 'GET',
        pattern: /^\/extended\/v1\/address\/([^/]+)\/nonces\/?$/,
        handle: ({ params }) => ok(hiroNonces(state, principalParam(params[0]))),
      },
      {
        method: 'GET',
        pattern: /^\/extended\/v1\/address\/([^/]+)\/stx\/?$/,
        handle: ({ params }) => ok(hiroStxBalance(state, principalParam(params[0]))),
      },
      {
        method: 'GET',
        pattern: /^\/extended\/v1\/address\/([^/]+)\/balances\/?$/,
        handle: ({ params }) =>
          ok({
            stx: hiroStxBalance(state, principalParam(params[0])),
            fungible_tokens: {},
            non_fungible_tokens: {},
          }),
      },
      {
        method: 'GET',
        pattern: /^\/txid\/([^/]+)\/?$/,
        handle: ({ params }) => this.#page(params[0]),
      },
      { method: 'POST', pattern: /^\/devnet\/mine\/?$/, handle: () => this.#mine() },
      { method: 'GET', pattern: /^\/devnet\/accounts\/?$/, handle: () => this.#accounts() },
      { method: 'POST', pattern: /^\/devnet\/faults\/?$/, handle: (c) => this.#addFault(c) },
      {
        method: 'DELETE',
        pattern: /^\/devnet\/faults\/?$/,
        handle: () => {
          this.#backend.faults.clear()
          return ok({ faults: [] })
        },
      },
    ]
  }

  async #broadcast({ req }: RequestContext): Promise<Reply> {
    const body = await readBody(req, this.#maxBodyBytes)
    const type = mediaType(req)
    let bytes: Uint8Array
    if (type === 'application/octet-stream') {
      bytes = new Uint8Array(body)
    } else if (type === 'application/json') {
      const json = parseJson(body)
      if (!isRecord(json) || typeof json.tx !== 'string') {
        throw new HttpError(400, { error: 'expected a JSON body {"tx": "<hex>"}' })
      }
      const hex = json.tx.startsWith('0x') ? json.tx.slice(2) : json.tx
      if (!HEX.test(hex)) return { status: 400, text: 'Failed to parse tx' }
      bytes = new Uint8Array(Buffer.from(hex, 'hex'))
    } else {
      throw new HttpError(415, {
        error:
          'send the transaction as application/octet-stream or application/json {"tx": "<hex>"}',
      })
    }

    const result = await this.#backend.submit(bytes)
    if (result.outcome === 'rejected') {
      const { txid, reason, reason_data: reasonData } = result.rejection
      // stacks-node refuses bytes it cannot decode in its HTTP layer, as text;
      // the mempool's JSON refusal is for transactions it could read.
      if (reason === 'Deserialization') {
        return {
          status: 400,
          text: `Failed to deserialize posted transaction: ${reasonData?.message}`,
        }
      }
      return {
        status: 400,
        body: { error: 'transaction rejected', reason, reason_data: reasonData, txid },
      }
    }
    return ok(result.outcome === 'accepted' ? result.tx.txid : result.txid)
  }

  async #feeEstimate({ req }: RequestContext): Promise<Reply> {
    const json = parseJson(await readBody(req, this.#maxBodyBytes))
    if (!isRecord(json) || typeof json.transaction_payload !== 'string') {
      throw new HttpError(400, {
        error: 'expected {"transaction_payload": "<hex>", "estimated_len"?: number}',
      })
    }
    const hex = json.transaction_payload.replace(/^0x/, '')
    const payloadLength = hex.length / 2
    try {
      if (!HEX.test(hex) || payloadLength === 0) throw new Error('not hex')
      deserializePayload(hex)
    } catch {
      throw new HttpError(400, {
        error: 'transaction_payload is not a serialized transaction payload',
      })
    }
    const estimated = json.estimated_len
    if (
      estimated !== undefined &&
      estimated !== null &&
      !(typeof estimated === 'number' && Number.isSafeInteger(estimated) && estimated >= 0)
    ) {
      throw new HttpError(400, { error: 'estimated_len must be a non-negative integer' })
    }
    return ok(nodeFeeEstimate(payloadLength, typeof estimated === 'number' ? estimated : null))
  }

  #transaction(rawTxid: string): Reply {
    const txid = txidParam(rawTxid)
    const shown = this.#reported(txid)
    if (!shown) return { status: 404, body: hiroTransactionNotFound(txid) }
    return ok(shown)
  }

  /** The explorer page of a transaction as the chain holds it (faults do not apply). */
  #page(rawTxid: string): Reply {
    const txid = TXID.exec(rawTxid)?.[1].toLowerCase()
    const record = txid ? this.#backend.state.get(txid) : undefined
    if (!record) return { status: 404, html: transactionNotFoundPage(rawTxid) }
    return { status: 200, html: transactionPage(record, this.#backend.state.tip) }
  }

  /**
   * The transaction as the Hiro API shows it, through a `report_dropped` fault;
   * null (not found) until mined under a `report_unknown` fault.
   */
  #reported(txid: string): HiroTransaction | null {
    const record = this.#backend.state.get(txid)
    if (!record) return null
    const shown = hiroTransaction(record)
    const fault = this.#backend.faults.lookupFault(record.tx.txid)
    if (fault === 'dropped' && shown.tx_status === 'pending') {
      return { ...shown, tx_status: 'dropped_stale_garbage_collect' }
    }
    const mined = record.status === 'success' || record.status === 'abort_by_response'
    return fault === 'unknown' && !mined ? null : shown
  }

  #multipleTransactions(url: URL): Reply {
    const requested = url.searchParams.getAll('tx_id').flatMap((value) => value.split(','))
    if (requested.length === 0) {
      throw new HttpError(400, { error: 'give at least one tx_id query parameter' })
    }
    const result: HiroTransactionList = {}
    for (const raw of requested) {
      const txid = txidParam(raw)
      const shown = this.#reported(txid)
      result[with0x(txid)] = shown
        ? { found: true, result: shown }
        : { found: false, result: { tx_id: with0x(txid) } }
    }
    return ok(result)
  }

  async #mine(): Promise<Reply> {
    const block = await this.#backend.mine()
    return ok({ block_height: block.height, block_hash: with0x(block.hash), txids: block.txids })
  }

  #accounts(): Reply {
    return ok(
      this.#backend.accounts.map((account) => ({
        label: account.label,
        address: account.address,
        private_key: account.privateKey,
        balance: this.#backend.state.balanceOf(account.address).toString(),
      }))
    )
  }

  async #addFault({ req }: RequestContext): Promise<Reply> {
    const json = parseJson(await readBody(req, this.#maxBodyBytes))
    if (!isRecord(json)) throw new HttpError(400, { error: 'expected a JSON object' })
    const { faults } = this.#backend
    const count = json.count ?? 1
    const pathPrefix = json.path_prefix ?? undefined
    if (!(typeof count === 'number' && Number.isSafeInteger(count) && count >= 1)) {
      throw new HttpError(400, { error: 'count must be a positive integer' })
    }
    if (pathPrefix !== undefined && typeof pathPrefix !== 'string') {
      throw new HttpError(400, { error: 'path_prefix must be a string' })
    }

    if (json.kind === 'status') {
      const status = json.status
      if (!INJECTABLE_STATUSES.some((allowed) => allowed === status)) {
        throw new HttpError(400, {
          error: `status must be one of ${INJECTABLE_STATUSES.join(', ')}`,
        })
      }
      faults.failNext(count, status as InjectedStatus, pathPrefix)
    } else if (json.kind === 'timeout') {
      faults.timeoutNext(count, pathPrefix)
    } else if (json.kind === 'lost_answer') {
      const status = json.status ?? null
      if (status !== null && !INJECTABLE_STATUSES.some((allowed) => allowed === status)) {
        throw new HttpError(400, {
          error: `status must be null or one of ${INJECTABLE_STATUSES.join(', ')}`,
        })
      }
      faults.loseAnswerNext(count, pathPrefix, { status: status as InjectedStatus | null })
    } else if (json.kind === 'abort') {
      if (typeof json.txid !== 'string' || !TXID.test(json.txid)) {
        throw new HttpError(400, { error: 'txid must be a 64-digit hex transaction id' })
      }
      faults.abort(json.txid)
    } else if (typeof json.kind === 'string' && Object.hasOwn(TRANSACTION_FAULT_KINDS, json.kind)) {
      const sender = json.sender ?? undefined
      if (sender !== undefined && (typeof sender !== 'string' || !isTestnetPrincipal(sender))) {
        throw new HttpError(400, { error: 'sender must be a testnet (ST…/SN…) address' })
      }
      faults.transactionFaultNext(TRANSACTION_FAULT_KINDS[json.kind], count, sender)
    } else {
      throw new HttpError(400, {
        error:
          'kind must be "status", "timeout", "lost_answer", "abort", "abort_next", "report_dropped" or "report_unknown"',
      })
    }
    return ok({ faults: faults.pending() })
  }
}

/**
 * A failing node's answer: stacks-node documents its errors as text/plain,
 * the Hiro API as JSON `{error, message?}`.
 */
function sendInjectedStatus(
  res: ServerResponse,
  path: string,
  status: InjectedStatus,
  retryAfterSeconds: number | null
): void {
  const headers: Record<string, string> =
    retryAfterSeconds === null ? {} : { 'retry-after': String(retryAfterSeconds) }
  if (path.startsWith('/v2/'))
    return sendText(res, status, `injected fault: HTTP ${status}`, headers)
  sendJson(res, status, { error: 'injected fault', status }, headers)
}

function ok(body: unknown): Reply {
  return { status: 200, body }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  if (res.headersSent || res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'access-control-allow-origin': '*',
    ...headers,
  })
  res.end(text)
}

function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {}
): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'access-control-allow-origin': '*',
    ...headers,
  })
  res.end(text)
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    ...PAGE_SECURITY_HEADERS,
  })
  res.end(html)
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () => new HttpError(413, { error: `request body exceeds ${limit} bytes` })
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limit) return reject(tooLarge())
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.off('data', onData)
        req.resume()
        reject(tooLarge())
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => resolve(Buffer.concat(chunks)))
    req.once('error', reject)
  })
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    throw new HttpError(400, { error: 'request body is not valid JSON' })
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
}

function principalParam(value: string): string {
  if (!isTestnetPrincipal(value)) {
    throw new HttpError(400, {
      error: 'invalid principal: expected a testnet (ST…/SN…) address',
      principal: value,
    })
  }
  return value
}

/** A txid as the chain stores it: lowercase hex, no 0x. */
function txidParam(value: string): string {
  const match = TXID.exec(value)
  if (!match) throw new HttpError(400, { error: 'invalid transaction id', tx_id: value })
  return match[1].toLowerCase()
}
