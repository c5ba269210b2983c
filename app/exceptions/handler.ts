import app from '@adonisjs/core/services/app'
import { type HttpContext, ExceptionHandler } from '@adonisjs/core/http'
import type { HttpError } from '@adonisjs/core/types/http'
import { errors as limiterErrors } from '@adonisjs/limiter'
import { isCodedRule } from '#core/coded_rules'
import { declaredCodeOf, ERROR_CODES, type ErrorCode, type ErrorCodeEntry } from '#core/error_codes'
import { PaidCallFailure, setPaymentResponse } from '#payments/paid_call_response'
import { DetailedException } from '#core/exceptions'
import { E_FEED_NOT_FOUND } from '#feeds/exceptions'
import { feedPaths } from '#feeds/feed_paths'
import { setPageHeaders } from '#web/page_headers'

type ValidationMessage = { field: string; message: string; rule: string }

/**
 * The only place errors become HTTP responses. Every error is JSON:
 * `{error: {code, message, fields?}}` with a stable snake_case code derived
 * from the exception's E_ code, declared in app/core/error_codes.ts with the
 * `Retry-After` it carries (a rate limit's: the seconds left in its window).
 * An error thrown after a payment header decoded
 * comes wrapped in a PaidCallFailure with its x402 `payment-response`.
 * Every error body carries `request_id`, the X-Request-Id of the response,
 * for a client to quote. Server errors never expose their message, stack or a
 * library's error code: the detail is logged with that id (the base handler's
 * report()).
 */
export default class HttpExceptionHandler extends ExceptionHandler {
  protected debug = !app.inProduction
  protected renderStatusPages = false

  async handle(error: unknown, ctx: HttpContext): Promise<unknown> {
    if (error instanceof PaidCallFailure) {
      setPaymentResponse(ctx.response, error.settlement)
      return this.handle(error.cause, ctx)
    }
    const code = declaredCodeOf(error)
    const declared = code ? (ERROR_CODES[code] as ErrorCodeEntry) : undefined
    if (declared?.retryAfterSeconds) {
      ctx.response.header('retry-after', String(declared.retryAfterSeconds))
    }
    if (declared?.challenge) ctx.response.header('www-authenticate', declared.challenge)
    if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) {
      // The library's own rendering has another shape: ours, with its Retry-After.
      ctx.response.header('retry-after', String(Math.max(1, error.response.availableIn)))
      return this.renderError(error, ctx)
    }
    const encoding = contentEncodingRefusal(error)
    if (encoding) {
      return sendError(ctx, encoding.status, encoding.error)
    }
    const httpError = this.toHttpError(error)
    if (wantsPage(ctx)) return this.renderPage(httpError, ctx)
    // A library error's own handle() (auth's E_UNAUTHORIZED_ACCESS, …) renders another shape,
    // without the request id: it is rendered as ours below, keeping its status, code and message.
    // The body parser's JSON.parse: a syntax error, or a stack overflow on very deep nesting —
    // in JSON.parse (a 400), or in the copy of the parsed body it then keeps (lodash cloneDeep,
    // which recurses; its RangeError comes as it is, before the body is marked parsed).
    const parsingBody =
      ctx.request.hasBody() &&
      ctx.request.is(['json']) !== null &&
      ctx.request.bodyType === undefined
    if (
      (error instanceof SyntaxError || error instanceof RangeError) &&
      (httpError.status === 400 || (error instanceof RangeError && parsingBody))
    ) {
      return sendError(ctx, 400, {
        code: 'invalid_json' satisfies ErrorCode,
        message:
          error instanceof RangeError
            ? 'The request body nests too deeply to be read'
            : 'The request body is not valid JSON',
      })
    }
    if (httpError.code === 'E_VALIDATION_ERROR' && 'messages' in httpError) {
      return this.renderValidationError(httpError, ctx)
    }
    return this.renderError(httpError, ctx)
  }

  async report(error: unknown, ctx: HttpContext) {
    return super.report(error instanceof PaidCallFailure ? error.cause : error, ctx)
  }

  /**
   * A feed that cannot serve (paused, no data yet, its source failing) is a
   * provider's state, and a database that does not answer a readiness probe an
   * outage, not a fault of ours: logged as a warning, without a stack.
   */
  protected getErrorLogLevel(error: HttpError) {
    const code = declaredCodeOf(error)
    if (code && STATE_REPORTS.has(code)) return 'warn'
    return super.getErrorLogLevel(error)
  }

  /** A client's undecodable body is its mistake, not ours: answered 4xx, never logged as an error. */
  protected shouldReport(error: HttpError) {
    return !contentEncodingRefusal(error) && super.shouldReport(error)
  }

  /** A page's error, or a browser's unknown URL: a page saying what happened, in words. */
  async renderPage(error: HttpError, ctx: HttpContext) {
    const status = error.status ?? 500
    const page =
      status === 404
        ? {
            heading: 'Page not found',
            message: 'There is no page at this address.',
            suggestion: suggestedPage(error),
          }
        : status >= 500
          ? {
              heading: 'Something went wrong',
              message: `The page could not be shown. Try again in a moment; if it keeps failing, tell us the request id ${ctx.request.id()}.`,
            }
          : { heading: 'That did not work', message: inWords(error) }
    ctx.response.status(status).header('content-type', 'text/html; charset=utf-8')
    setPageHeaders(ctx.response)
    ctx.response.send(await ctx.view.render('pages/errors/status', { status, ...page }))
  }

  async renderError(error: HttpError, ctx: HttpContext) {
    const status = error.status ?? 500
    if (status >= 500) {
      return sendError(
        ctx,
        status,
        isOwnServiceError(error)
          ? { code: codeOf(error, 'internal_error'), message: error.message, ...detailsOf(error) }
          : { code: 'internal_error' satisfies ErrorCode, message: 'Internal server error' }
      )
    }
    return sendError(ctx, status, {
      code: codeOf(error, 'bad_request'),
      message: error.message,
      ...detailsOf(error),
    })
  }

  async renderValidationError(error: HttpError, ctx: HttpContext) {
    const messages = (error as HttpError & { messages: ValidationMessage[] }).messages
    const only = messages.length === 1 ? messages[0] : undefined
    const coded = only && isCodedRule(only.rule) ? only : undefined
    return sendError(ctx, error.status ?? 422, {
      code: coded?.rule ?? ('validation_failed' satisfies ErrorCode),
      message: coded?.message ?? 'The request is invalid: see fields',
      fields: messages.map(({ field, message, rule }: ValidationMessage) => ({
        field,
        message,
        rule,
      })),
    })
  }
}

/**
 * Writes a JSON error: `{error: {code, message, …details, request_id}}`, the
 * request id being the one the X-Request-Id response header carries.
 */
function sendError(
  ctx: HttpContext,
  status: number,
  error: { code: string; message: string; [detail: string]: unknown }
) {
  ctx.response.status(status).send({ error: { ...error, request_id: ctx.request.id() } })
}

/**
 * The 503s that report a state (see getErrorLogLevel): a feed's, or to a
 * readiness probe the database's — an outage, not a bug of ours.
 */
const STATE_REPORTS = new Set<ErrorCode>([
  'feed_unavailable',
  'source_unavailable',
  'database_unavailable',
])

/** The paths of the pages (app/web/routes.ts); every other path is the JSON API's. */
const PAGE_PATHS = /^\/(market|dashboard)(\/|$)/

/**
 * Pages answer errors as pages; so does an unknown URL under the pages' own
 * prefixes when a browser asked for it (its Accept prefers HTML). The API's
 * paths answer JSON whoever asks.
 */
function wantsPage(ctx: HttpContext) {
  const routeName = ctx.route?.name
  if (routeName) return routeName.startsWith('web.')
  return PAGE_PATHS.test(ctx.request.url()) && ctx.request.accepts(['json', 'html']) === 'html'
}

/** A page's refused address says why in words: each field's message, not "Validation failure". */
function inWords(error: HttpError) {
  if (error.code !== 'E_VALIDATION_ERROR' || !('messages' in error)) return error.message
  return (error.messages as ValidationMessage[]).map(({ message }) => `${message}.`).join(' ')
}

/**
 * A 404 page names nothing from the address (it would be text anyone can put
 * on our page: "send 10 STX to …"), only the existing feed a mistyped one
 * likely meant — the API's `suggestion` — as a link to its page.
 */
function suggestedPage(error: HttpError) {
  const name = error instanceof E_FEED_NOT_FOUND ? error.details.suggestion : undefined
  return name && { name, href: feedPaths(name).page }
}

/**
 * E_ROUTE_NOT_FOUND → route_not_found. Only the framework's and our own E_
 * codes are stable; a library's or the database's (22021, ECONNRESET, …) is not.
 */
/**
 * A declared code (app/core/error_codes.ts) for the error: its own `E_…` code when we
 * declare it, a library's 401 as `unauthenticated`, anything else `fallback`.
 */
function codeOf(error: HttpError, fallback: ErrorCode): ErrorCode {
  const own = typeof error.code === 'string' && error.code.startsWith('E_')
  const code = own ? (error.code as string).slice(2).toLowerCase() : undefined
  if (code && Object.hasOwn(ERROR_CODES, code)) return code as ErrorCode
  return error.status === 401 ? 'unauthenticated' : fallback
}

/** The machine-readable details an exception carries beside its code and message. */
function detailsOf(error: HttpError) {
  return error instanceof DetailedException ? error.details : {}
}

/** Our own 5xx errors (E_CHAIN_NODE_UNAVAILABLE, …) carry safe messages; anything else does not. */
function isOwnServiceError(error: HttpError) {
  return typeof error.code === 'string' && error.code.startsWith('E_') && error.status !== 500
}

/**
 * The body parser's decompression failures, which carry no status of ours:
 * an unsupported Content-Encoding (415 from `inflation`), or data that is
 * not what its encoding says (zlib's Z_DATA_ERROR, Z_BUF_ERROR, …, brotli's
 * ERR__ERROR_FORMAT_…).
 */
function contentEncodingRefusal(error: unknown) {
  const { code, status, message } = (error ?? {}) as {
    code?: unknown
    status?: unknown
    message?: unknown
  }
  if (
    status === 415 &&
    typeof message === 'string' &&
    message.startsWith('Unsupported Content-Encoding')
  ) {
    return {
      status: 415,
      error: {
        code: 'content_encoding_unsupported' satisfies ErrorCode,
        message: 'Content-Encoding must be gzip, deflate or br',
      },
    }
  }
  if (typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_'))) {
    return {
      status: 400,
      error: {
        code: 'invalid_body_encoding' satisfies ErrorCode,
        message: 'The request body is not valid data for its Content-Encoding',
      },
    }
  }
  return undefined
}
