import { createHash } from 'node:crypto'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import {
  RESPONSE,
  type SimulatedRoute,
  type SimulatorClock,
  type UpstreamFixture,
} from './fixture.js'
import { FIXTURES } from './fixtures/index.js'

export type SimulatedFault =
  'status_500' | 'status_503' | 'timeout' | 'malformed_json' | 'schema_drift'

/** Runs `callback` after `ms`, like setTimeout; returns a function cancelling it. */
export type HangTimer = (callback: () => void, ms: number) => () => void

const realHangTimer: HangTimer = (callback, ms) => {
  const timer = setTimeout(callback, ms)
  timer.unref()
  return () => clearTimeout(timer)
}

interface CompiledRoute {
  route: SimulatedRoute
  pattern: RegExp
  names: string[]
}

/**
 * A local HTTP server answering the upstream APIs of the built-in feeds in
 * their real formats, under `/<upstream name>/<real path>`. Development and
 * tests point the adapters at it; it is never used in production.
 */
export class UpstreamSimulator {
  #server?: Server
  #routes = new Map<string, CompiledRoute[]>()
  #faults = new Map<string, SimulatedFault[]>()
  #sockets = new Set<Socket>()
  #clock: SimulatorClock
  #hangMs: number
  #hangTimer: HangTimer
  #held = 0
  #heldWaiters: (() => void)[] = []

  constructor(
    options: {
      fixtures?: UpstreamFixture[]
      now?: () => number
      hangMs?: number
      hangTimer?: HangTimer
    } = {}
  ) {
    const now = options.now ?? Date.now
    this.#hangMs = options.hangMs ?? 30_000
    this.#hangTimer = options.hangTimer ?? realHangTimer
    this.#clock = {
      now,
      random: (key, bucketMs = 60_000) => {
        const bucket = Math.floor(now() / bucketMs)
        const digest = createHash('sha256').update(`${key}:${bucket}`).digest()
        return digest.readUInt32BE(0) / 2 ** 32
      },
    }
    for (const fixture of options.fixtures ?? FIXTURES) {
      const routes = this.#routes.get(fixture.upstream) ?? []
      routes.push(...fixture.routes.map(compile))
      this.#routes.set(fixture.upstream, routes)
    }
  }

  get url() {
    const address = this.#server?.address() as AddressInfo | undefined
    if (!address) throw new Error('the upstream simulator is not listening')
    return `http://127.0.0.1:${address.port}`
  }

  async listen(port = 0, host = '127.0.0.1') {
    this.#server = createServer((request, response) => void this.#handle(request, response))
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket)
      socket.on('close', () => this.#sockets.delete(socket))
    })
    await new Promise<void>((resolve, reject) => {
      this.#server!.once('error', reject)
      this.#server!.listen(port, host, resolve)
    })
    return this
  }

  /** The next `count` calls to the upstream answer with the fault. */
  failNext(upstream: string, fault: SimulatedFault, count = 1) {
    const queue = this.#faults.get(upstream) ?? []
    queue.push(...Array.from({ length: count }, () => fault))
    this.#faults.set(upstream, queue)
  }

  clearFaults() {
    this.#faults.clear()
  }

  /** Resolves once a timeout fault is holding a request: at once if one is held now. */
  held(): Promise<void> {
    if (this.#held > 0) return Promise.resolve()
    return new Promise((resolve) => this.#heldWaiters.push(resolve))
  }

  async close() {
    for (const socket of this.#sockets) socket.destroy()
    await new Promise<void>((resolve) =>
      this.#server ? this.#server.close(() => resolve()) : resolve()
    )
  }

  async #handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://simulator')
    const [, upstream = '', ...rest] = url.pathname.split('/')
    const path = `/${rest.join('/')}`
    const method = request.method ?? 'GET'

    const fault = this.#faults.get(upstream)?.shift()
    if (fault === 'timeout') return this.#hang(request)
    if (fault === 'status_500' || fault === 'status_503') {
      return send(response, Number(fault.slice(-3)), { error: 'simulated upstream failure' })
    }

    const match = this.#match(upstream, method, path)
    if (!match)
      return send(response, 404, { error: `no simulated route for ${method} /${upstream}${path}` })

    let body: unknown
    try {
      body = await readJson(request)
    } catch {
      return send(response, 400, { error: 'invalid JSON body' })
    }
    const answer = match.route.handle(
      { method, path, query: url.searchParams, body, params: match.params },
      this.#clock
    )
    const { status, payload } = isResponse(answer)
      ? { status: answer.status, payload: answer.body }
      : { status: 200, payload: answer }

    if (fault === 'malformed_json') {
      response.writeHead(200, { 'content-type': 'application/json' })
      return response.end('{"truncated": ')
    }
    if (fault === 'schema_drift') return send(response, 200, { unexpected: 'shape', data: null })
    send(response, status, payload)
  }

  #hang(request: IncomingMessage) {
    const socket = request.socket
    const cancelDrop = this.#hangTimer(() => socket.destroy(), this.#hangMs)
    this.#held += 1
    for (const resolve of this.#heldWaiters.splice(0)) resolve()
    socket.once('close', () => {
      cancelDrop()
      this.#held -= 1
    })
  }

  #match(upstream: string, method: string, path: string) {
    for (const compiled of this.#routes.get(upstream) ?? []) {
      if (compiled.route.method !== method) continue
      const found = compiled.pattern.exec(path)
      if (!found) continue
      const params: Record<string, string> = {}
      compiled.names.forEach((name, index) => (params[name] = decodeURIComponent(found[index + 1])))
      return { route: compiled.route, params }
    }
    return undefined
  }
}

function compile(route: SimulatedRoute): CompiledRoute {
  const names: string[] = []
  const source = route.path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      names.push(segment.slice(1))
      return '([^/]+)'
    })
    .join('/')
  return { route, pattern: new RegExp(`^${source}/?$`), names }
}

function isResponse(value: unknown): value is { status: number; body: unknown } {
  return typeof value === 'object' && value !== null && RESPONSE in value
}

function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  if (chunks.length === 0) return undefined
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}
