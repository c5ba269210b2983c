import { clearSession, currentSession } from './session'

/** A field the API refused, with the API's reason. */
export interface FieldProblem {
  field: string
  message: string
  rule: string
}

/**
 * A refusal or failure of the API, in words a person understands: the API's
 * own message (they are written for people), replaced where a code calls for
 * what to do next, and the refused fields for the form to show.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly fields: FieldProblem[] = []
  ) {
    super(message)
  }

  /** The message of one refused field, if the API named it. */
  fieldMessage(field: string) {
    return this.fields.find((problem) => problem.field === field)?.message
  }
}

const IN_WORDS: Record<string, string> = {
  unauthenticated: 'Your session has ended. Sign in again with your wallet.',
  not_owner:
    'The wallet you signed in with does not own this provider. Sign in with the wallet that registered it.',
  challenge_expired: 'The signature request expired (it is valid for 5 minutes). Please try again.',
  challenge_used: 'That signature was already used. Please try again.',
  signature_invalid:
    'The signature does not come from the wallet address shown. Choose that account in your wallet and try again.',
  route_not_found:
    'This server does not offer that yet (an older version of Tollbooth is running).',
  validation_failed: 'Some fields need a fix: see the messages next to them.',
  invalid_output_schema: 'The JSON Schema needs a fix: see the message next to it.',
  output_example_mismatch: 'The example needs a fix: see the message next to it.',
}

function inWords(code: string, message: string, status: number, requestId?: string) {
  if (status >= 500 && code === 'internal_error') {
    return `Something went wrong on our side${requestId ? ` (request ${requestId})` : ''}. Please try again in a moment.`
  }
  return IN_WORDS[code] ?? message
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  body?: unknown
  /** A JSON document sent exactly as written (an upload) instead of `body`. */
  jsonText?: string
  /** Send the session's bearer token (default true). */
  auth?: boolean
  accept?: string
}

/** One call of the Tollbooth HTTP API from the page (same origin). */
export async function apiResponse(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' }
  const payload =
    options.jsonText ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
  if (payload !== undefined) headers['content-type'] = 'application/json'
  const session = options.auth === false ? null : currentSession()
  if (session) headers.authorization = `Bearer ${session.token}`
  let response: Response
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: payload,
    })
  } catch {
    throw new ApiError(
      'Could not reach Tollbooth. Check your connection and try again.',
      'network_error',
      0
    )
  }
  if (response.ok) return response
  const body = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string; fields?: FieldProblem[]; request_id?: string }
  } | null
  const error = body?.error ?? {}
  const code = error.code ?? 'http_error'
  if (code === 'unauthenticated') clearSession()
  throw new ApiError(
    inWords(
      code,
      error.message ?? `The server answered ${response.status}.`,
      response.status,
      error.request_id
    ),
    code,
    response.status,
    error.fields ?? []
  )
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiResponse(path, options)
  return (response.status === 204 ? null : await response.json()) as T
}

/** Any thrown thing as a sentence for the page. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return 'Something unexpected happened. Please try again.'
}
