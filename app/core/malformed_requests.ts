import { randomUUID } from 'node:crypto'
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http'
import type { Socket } from 'node:net'
import type { RequestLimits } from '#core/app_config'

/**
 * Requests that never reach the router — refused by Node's HTTP parser, or
 * with a URL the framework cannot decode — still get the service's JSON
 * error shape and a request id, not an empty or text/plain answer. The id is
 * a `randomUUID()`, as the framework's own (its default `createRequestId`):
 * the framework exports no generator, and no framework request, hence no
 * `request.id()`, exists for these.
 */

interface Refusal {
  status: number
  code: string
  message: string
}

/** What Node's parser (llhttp) refused, in the service's terms. */
function refusalOf(error: NodeJS.ErrnoException): Refusal {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'headers_too_large',
        message: 'The request headers exceed 16 KiB',
      }
    case 'HPE_INVALID_METHOD':
      return { status: 501, code: 'method_not_implemented', message: 'Unknown HTTP method' }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'request_timeout',
        message: 'The request took too long to arrive',
      }
    default:
      return {
        status: 400,
        code: 'malformed_request',
        message: 'The request is not valid HTTP/1.1 (headers, encoding or framing)',
      }
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
}

function body(refusal: Refusal, requestId: string) {
  return JSON.stringify({
    error: { code: refusal.code, message: refusal.message, request_id: requestId },
  })
}

/**
 * Answers a request Node's parser refused, on the raw socket (no response
 * object exists yet), then closes the connection: after a framing error the
 * rest of the stream cannot be trusted.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket) {
  // As Node's default: once a response has started on this socket, no second one can be written.
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (error.code === 'ECONNRESET' || !socket.writable || started?.headersSent) {
    socket.destroy()
    return
  }
  const refusal = refusalOf(error)
  const requestId = randomUUID()
  const payload = body(refusal, requestId)
  // Imported here: this module is loaded by bin/server.ts before the app (and its logger) exists.
  import('@adonisjs/core/services/logger')
    .then(({ default: logger }) =>
      logger.info(
        { request_id: requestId, parser_error: error.code, status: refusal.status },
        'request refused by the HTTP parser'
      )
    )
    .catch(() => {})
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_TEXT[refusal.status]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(payload)}\r\n` +
      `x-request-id: ${requestId}\r\n` +
      'connection: close\r\n\r\n' +
      payload
  )
}

/** The framework's `onBadUrl`: a URL whose percent-escapes are not valid UTF-8. */
export function answerBadUrl(_request: IncomingMessage, response: ServerResponse) {
  const requestId = randomUUID()
  const refusal = {
    status: 400,
    code: 'malformed_url',
    message: 'The URL contains percent-escapes that are not valid UTF-8',
  }
  response.writeHead(400, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': requestId,
  })
  response.end(body(refusal, requestId))
}

/**
 * The HTTP server every entry point (bin/server.ts, the tests) starts, with
 * the time limits of config/app.ts `requestLimits` (AppConfig), which the
 * caller resolves once the app has booted: this module is loaded before.
 */
export function createHttpServer(handler: RequestListener, limits: RequestLimits) {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    handler
  )
  server.on('clientError', answerClientError)
  return server
}
