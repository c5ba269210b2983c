import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ServeFeed } from '#payments/actions/serve_feed'
import type { FeedRef } from '#feeds/feed_paths'
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

  async #serve({ request, response }: HttpContext, feed: FeedRef) {
    const result = await this.serveFeed.execute({
      feed,
      query: request.qs(),
      // A HEAD gets no body, so it never pays: it is quoted like the unpaid GET.
      paymentHeader: request.method() === 'HEAD' ? undefined : request.header('payment-signature'),
      agentName: sanitiseAgentName(request.header('x-agent-name')),
    })
    return sendPaidCallResult(response, result)
  }
}
