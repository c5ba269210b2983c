import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ServeFeed } from '#payments/actions/serve_feed'
import { type FeedRef, feedName } from '#feeds/feed_paths'
import { RequestLog } from '#core/request_log'
import { sendPaidCallResult } from '#payments/paid_call_response'
import { sanitiseAgentName } from '#stats/agent_name'

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
    const paymentHeader =
      request.method() === 'HEAD' ? undefined : request.header('payment-signature')
    const log = new RequestLog(ctx)
    // Only a paid call's lines: the unpaid 402 is the hot path (a child logger costs ~1 µs).
    if (paymentHeader !== undefined) log.bind({ feed: feedName(feed) })
    const result = await this.serveFeed.execute({
      feed,
      query: request.qs(),
      paymentHeader,
      agentName: sanitiseAgentName(request.header('x-agent-name')),
      log,
    })
    return sendPaidCallResult(response, result)
  }
}
