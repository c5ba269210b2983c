import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import { PlatformWallet } from '#chain/platform_wallet'
import type { HttpContext } from '@adonisjs/core/http'
import { Clock } from '#core/clock'
import { E_FEED_UNAVAILABLE } from '#feeds/exceptions'
import { FeedReader } from '#feeds/feed_reader'
import { FeedDirectory } from '#feeds/feed_directory'
import {
  type PaidCallResult,
  ServePaidCall,
  feedPaymentRequired,
} from '#payments/actions/serve_paid_call'
import { encodeHeader, encodeSettlementResponse } from '#payments/x402_codec'
import { sanitiseAgentName } from '#stats/agent_name'
import type Feed from '#models/feed'

/**
 * GET /feeds/:id (built-in) and GET /feeds/p/:handle/:slug (a provider's),
 * through the same paid call. Check order: unknown feed 404 → paused 503 →
 * invalid query 422 → payment (402, 200, 202 or 429).
 */
@inject()
export default class ServeFeedController {
  constructor(
    private feeds: FeedDirectory,
    private reader: FeedReader,
    private wallet: PlatformWallet,
    private clock: Clock
  ) {}

  async builtin(ctx: HttpContext) {
    const startedAt = this.clock.now()
    const feed = await this.feeds.builtinOrFail(String(ctx.params.id))
    return this.#serve(ctx, feed, `/feeds/${feed.slug}`, startedAt)
  }

  async provider(ctx: HttpContext) {
    const startedAt = this.clock.now()
    const handle = String(ctx.params.handle)
    const feed = await this.feeds.ofProviderOrFail(handle, String(ctx.params.slug))
    return this.#serve(ctx, feed, `/feeds/p/${handle}/${feed.slug}`, startedAt)
  }

  async #serve({ request, response }: HttpContext, feed: Feed, path: string, startedAt: number) {
    if (feed.status !== 'active') throw new E_FEED_UNAVAILABLE([feed.slug])
    const query = (await this.reader.validateQuery(feed, request.qs())) as Record<string, string>
    const paymentHeader = request.header('payment-signature')
    if (!paymentHeader) {
      return send(response, {
        kind: 'payment_required',
        body: feedPaymentRequired({ feed, path, query }, this.wallet.address),
      })
    }

    // Resolved only for a paying request: the unpaid 402 is the hot path and needs none of it.
    const servePaidCall = await app.container.make(ServePaidCall)
    const result = await servePaidCall.execute({
      feed,
      path,
      query,
      paymentHeader,
      agentName: sanitiseAgentName(request.header('x-agent-name')),
      startedAt,
    })
    if (result.kind === 'paid' && result.chainMs !== undefined) {
      const totalMs = this.clock.now() - startedAt
      response.header(
        'server-timing',
        `chain;dur=${result.chainMs};desc="broadcast and confirmation", app;dur=${totalMs - result.chainMs}`
      )
    }
    return send(response, result)
  }
}

function send(response: HttpContext['response'], result: PaidCallResult) {
  response.header('access-control-expose-headers', 'payment-required, payment-response')
  if ('settlement' in result && result.settlement) {
    response.header('payment-response', encodeSettlementResponse(result.settlement))
  }
  switch (result.kind) {
    case 'payment_required':
      response.header('payment-required', encodeHeader(result.body))
      return response.status(402).send(result.body)
    case 'paid':
      response.header('content-type', 'application/json; charset=utf-8')
      return response.status(200).send(result.body)
    case 'pending':
      response.header('retry-after', String(result.retryAfterSeconds))
      return response.status(202).send(result.body)
    case 'too_many_in_flight':
      response.header('retry-after', '5')
      return response.status(429).send({
        error: {
          code: 'too_many_payments_in_flight',
          message: 'This payer already has 5 payments settling',
        },
      })
    case 'failed':
      throw result.error
    case 'unavailable':
      response.header('retry-after', '5')
      return response.status(503).send({
        error: {
          code: 'settlement_unavailable',
          message: 'The Stacks node is rate-limiting; nothing was charged',
        },
      })
    default: {
      const unknownResult: never = result
      throw new Error(`unknown paid call result ${JSON.stringify(unknownResult)}`)
    }
  }
}
