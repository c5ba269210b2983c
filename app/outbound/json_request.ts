import { errors as vineErrors } from '@vinejs/vine'
import type { Clock } from '#core/clock'
import { readCappedBody } from '#outbound/capped_body'

/** Anything with VineJS's `validate`: the compiled validator of an answer. */
export interface Validates<T> {
  validate(data: unknown): Promise<T>
}

export type JsonRequestFailureKind =
  'timeout' | 'unreachable' | 'http_status' | 'too_large' | 'malformed_json' | 'invalid_answer'

/** What had arrived of the answer when a request failed. */
export interface AnswerHead {
  status: number
  headers: Headers
}

/** Why a JSON request failed; callers turn it into their own declared error. */
export class JsonRequestFailure extends Error {
  override name = 'JsonRequestFailure'

  constructor(
    readonly kind: JsonRequestFailureKind,
    message: string,
    /** The answer's status and headers, when it failed after they arrived. */
    readonly answer: AnswerHead | null = null
  ) {
    super(message)
  }
}

export interface JsonRequest<T> {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  /** Sent as it is: the caller names its content-type. */
  body?: string | Uint8Array
  /** By the clock; covers the connection and the whole answer. */
  timeoutMs: number
  maxBytes: number
  /** The compiled VineJS validator of the answer's body. */
  answer: Validates<T>
  /** Statuses whose body is read; any other fails as 'http_status', unread. Default: 2xx. */
  reads?: (status: number) => boolean
}

export interface JsonAnswer<T> extends AnswerHead {
  body: T
}

/**
 * One request to a JSON API of our own configuration (the Stacks node, the
 * built-in feeds' upstreams, a remote facilitator): timed out by the Clock,
 * its answer capped in size, parsed and validated. Redirects are refused, so
 * an API key is never sent on to another host. Provider-controlled URLs go
 * through OutboundClient and its SSRF guard instead.
 */
export async function requestJson<T>(
  clock: Clock,
  url: string,
  request: JsonRequest<T>
): Promise<JsonAnswer<T>> {
  const deadline = clock.deadline(request.timeoutMs)
  try {
    let response: Response
    try {
      response = await fetch(url, {
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
        signal: deadline.signal,
        redirect: 'error',
      })
    } catch (error) {
      throw deadline.signal.aborted
        ? new JsonRequestFailure('timeout', 'timed out')
        : new JsonRequestFailure('unreachable', transportErrorCode(error))
    }
    const head = { status: response.status, headers: response.headers }
    if (!(request.reads ?? isSuccess)(response.status)) {
      await response.body?.cancel()
      throw new JsonRequestFailure('http_status', `answered HTTP ${response.status}`, head)
    }
    const text = await readBody(response, request.maxBytes, deadline.signal, head)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new JsonRequestFailure('malformed_json', 'answered malformed JSON', head)
    }
    return { ...head, body: await validateAnswer(request.answer, body, head) }
  } finally {
    deadline.clear()
  }
}

/** `data` through `answer`; a validation error becomes an 'invalid_answer' failure. */
export async function validateAnswer<T>(
  answer: Validates<T>,
  data: unknown,
  head: AnswerHead | null = null
): Promise<T> {
  try {
    return await answer.validate(data)
  } catch (error) {
    if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
    throw new JsonRequestFailure('invalid_answer', 'answered an unexpected shape', head)
  }
}

async function readBody(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
  head: AnswerHead
): Promise<string> {
  const tooLarge = () =>
    new JsonRequestFailure('too_large', `answered more than ${maxBytes} bytes`, head)
  try {
    // Node's ReadableStream is async-iterable; fetch's DOM typing does not say so.
    const chunks = (response.body ?? []) as AsyncIterable<Uint8Array>
    const body = await readCappedBody(chunks, {
      maxBytes,
      declaredLength: response.headers.get('content-length'),
      tooLarge,
    })
    return body.toString('utf8')
  } catch (error) {
    // Unread (a declared length above the cap): close the connection.
    await response.body?.cancel().catch(() => {})
    if (error instanceof JsonRequestFailure) throw error
    if (signal.aborted) {
      throw new JsonRequestFailure('timeout', 'timed out while sending its answer', head)
    }
    throw new JsonRequestFailure('unreachable', 'closed the connection', head)
  }
}

function isSuccess(status: number) {
  return status >= 200 && status < 300
}

/** The system error code (ECONNREFUSED, …) behind a failed fetch, else its message. */
function transportErrorCode(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown transport error'
  return (error.cause as { code?: string } | undefined)?.code ?? error.message
}
