import type { HttpContext } from '@adonisjs/core/http'

/** What an operator follows a request by, beside its request_id (docs/operations.md#logs). */
export interface RequestLogFields {
  /** The feed a paid call buys: a built-in feed's id, or `handle/slug`. */
  feed?: string
  /** The transaction paying for a call or a top-up, once its payment header decoded. */
  txid?: string
  /** A call paid from prepaid credit, once its call is written (docs/credit.md). */
  credit_call_id?: string
  withdrawal_id?: string
}

/**
 * Adds fields to the log lines of one request as it learns them: the
 * request's logger (`ctx.logger`, which carries request_id) becomes a child
 * bound with them, so every later line — its actions' own, an error's report,
 * the closing "request completed" line — carries them.
 */
export class RequestLog {
  constructor(private ctx: Pick<HttpContext, 'logger'>) {}

  bind(fields: RequestLogFields) {
    this.ctx.logger = this.ctx.logger.child(fields)
  }
}
