import http, { type IncomingHttpHeaders } from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { readCappedBody } from '#outbound/capped_body'
import { OutboundFailure } from '#outbound/outbound_failure'
import type { ResolvedAddress } from '#outbound/resolver'
import type { CheckedTarget } from '#outbound/target_guard'

export interface OutgoingRequest {
  method: string
  /** Lowercase names. Never logged: callers put signatures in them. */
  headers: Record<string, string>
  body?: Buffer
}

export interface ExchangeResponse {
  status: number
  /** Lowercase names; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: Buffer
}

export interface ExchangeLimits {
  /** Aborts the exchange; it then rejects with the signal's reason. */
  signal: AbortSignal
  maxBytes: number
}

/** Errors that happen before a connection exists, so the next address may be tried. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'])

/**
 * One HTTP request and its whole (capped) answer, sent to the target's
 * checked addresses in turn. The socket goes to the address itself, so the
 * hostname is never looked up again; TLS still verifies the certificate
 * against the hostname.
 */
export async function exchange(
  target: CheckedTarget,
  request: OutgoingRequest,
  limits: ExchangeLimits
): Promise<ExchangeResponse> {
  let lastFailure: unknown
  for (const address of target.addresses) {
    try {
      return await exchangeWith(target, address, request, limits)
    } catch (error) {
      if (!(error instanceof NotConnected)) throw error
      lastFailure = error.failure
    }
  }
  throw lastFailure
}

class NotConnected extends Error {
  constructor(readonly failure: OutboundFailure) {
    super(failure.message)
  }
}

function exchangeWith(
  target: CheckedTarget,
  address: ResolvedAddress,
  request: OutgoingRequest,
  { signal, maxBytes }: ExchangeLimits
): Promise<ExchangeResponse> {
  return new Promise((resolve, reject) => {
    const { url, hostname } = target
    const transport = url.protocol === 'https:' ? https : http
    const outgoing = transport.request({
      host: address.address,
      family: address.family,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers: { ...request.headers, host: url.host },
      servername: isIP(hostname) ? undefined : hostname,
      agent: false,
    })

    let settled = false
    const settle = () => {
      settled = true
      signal.removeEventListener('abort', onAbort)
    }
    const fail = (error: unknown) => {
      if (settled) return
      settle()
      outgoing.destroy()
      reject(error)
    }
    const onAbort = () => fail(signal.reason)
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })

    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const failure = connectionFailure(url.host, error)
      fail(NOT_CONNECTED.has(error.code ?? '') ? new NotConnected(failure) : failure)
    })
    outgoing.on('response', (incoming) => {
      const tooLarge = () =>
        new OutboundFailure(
          'too_large',
          `${url.host} answered more than ${maxBytes} bytes`,
          incoming.statusCode ?? null
        )
      readCappedBody(incoming, {
        maxBytes,
        declaredLength: incoming.headers['content-length'],
        tooLarge,
      }).then(
        (body) => {
          if (settled) return
          settle()
          resolve({
            status: incoming.statusCode ?? 0,
            headers: flattenHeaders(incoming.headers),
            body,
          })
        },
        (error: NodeJS.ErrnoException) => {
          fail(error instanceof OutboundFailure ? error : connectionFailure(url.host, error))
        }
      )
    })
    outgoing.end(request.body)
  })
}

/** An 'unreachable' failure naming the host and, when it has one, the error code. */
function connectionFailure(host: string, error: { code?: string }): OutboundFailure {
  const code = /^[A-Z0-9_]+$/.test(error.code ?? '') ? error.code! : undefined
  let reason = 'could not be reached'
  if (code === 'ECONNREFUSED') reason = 'refused the connection'
  else if (code === 'ECONNRESET' || code === 'EPIPE') reason = 'closed the connection'
  else if (code && /CERT|TLS|SSL/.test(code)) reason = 'failed the TLS handshake'
  return new OutboundFailure('unreachable', `${host} ${reason}${code ? ` (${code})` : ''}`)
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return flat
}
