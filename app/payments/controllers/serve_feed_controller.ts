import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ServeFeed } from '#payments/actions/serve_feed'
import { type FeedRef, feedName } from '#feeds/feed_paths'
import { RequestLog } from '#core/request_log'
import { sendPaidCallResult } from '#payments/paid_call_response'
import { sanitiseAgentName } from '#stats/agent_name'
import { CREDIT_TOKEN_HEADER } from '#credit/credit_extension'
import { creditCallHeadersValidator } from '#credit/credit_token_validators'

/**
 * GET /feeds/:id (built-in) and GET /feeds/p/:handle/:slug (a provider's):
 * the paid call. The router answers HEAD on these routes too.
 */
@inject()
export default class ServeFeedController {
  constructor(private serveFeed: ServeFeed) {}

  builtin(ctx: HttpContext) {
    return this.#serve(ctx, { id: String(ctx.params.id) })
  }

  provider(ctx: HttpContext) {
    return this.#serve(ctx, { handle: String(ctx.params.handle), slug: String(ctx.params.slug) })
  }

  async #serve(ctx: HttpContext, feed: FeedRef) {
    const { request, response } = ctx
    // A HEAD gets no body, so it never pays: it is quoted like the unpaid GET.
    const paying = request.method() !== 'HEAD'
    const paymentHeader = paying ? request.header('payment-signature') : undefined
    const credit = paying ? await this.#credit(request) : undefined
    const log = new RequestLog(ctx)
    // Only a paid call's lines: the unpaid 402 is the hot path (a child logger costs ~1 µs).
    if (paymentHeader !== undefined || credit) log.bind({ feed: feedName(feed) })
    const result = await this.serveFeed.execute({
      feed,
      query: request.qs(),
      paymentHeader,
      credit,
      agentName: sanitiseAgentName(request.header('x-agent-name')),
      log,
    })
    return sendPaidCallResult(response, result)
  }

  /** The credit token and payment-identifier of a call paid from credit, validated; or none. */
  async #credit(request: HttpContext['request']) {
    if (request.header(CREDIT_TOKEN_HEADER) === undefined) return undefined
    const headers = await creditCallHeadersValidator.validate({
      'credit-token': request.header(CREDIT_TOKEN_HEADER),
      'payment-identifier': request.header('payment-identifier'),
    })
    return { token: headers['credit-token'], paymentIdentifier: headers['payment-identifier'] }
  }
}
