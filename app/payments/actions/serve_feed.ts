import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import { errors as vineErrors } from '@vinejs/vine'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { Clock } from '#core/clock'
import { E_FEED_NOT_FOUND } from '#feeds/exceptions'
import { FeedAvailability } from '#feeds/feed_availability'
import { FeedDirectory } from '#feeds/feed_directory'
import { FeedReader } from '#feeds/feed_reader'
import type Feed from '#models/feed'
import { type PaidResource, ServePaidCall } from '#payments/actions/serve_paid_call'
import { ServeCreditCall } from '#credit/actions/serve_credit_call'
import { type FeedRef, paidFeedPath } from '#feeds/feed_paths'
import type { ErrorCode } from '#core/error_codes'
import { type FeedCall, feedPaymentRequired } from '#payments/feed_payment_required'
import { paidBody } from '#payments/paid_body'
import type { PaidCallResult } from '#payments/paid_call_response'
import { resourceIdentity } from '#payments/x402'
import type { RequestLog } from '#core/request_log'
import { metrics } from '#metrics/metrics'

export interface FeedRequest {
  feed: FeedRef
  query: Record<string, unknown>
  paymentHeader?: string
  /** The `credit-token` header and its optional `payment-identifier`: a call paid from credit. */
  credit?: { token: string; paymentIdentifier?: string }
  agentName?: string
  log: RequestLog
}

/**
 * GET /feeds/:id and GET /feeds/p/:handle/:slug, through the same paid call.
 * Check order: unknown feed 404 → cannot serve now 503 (paused, or no data
 * yet: FeedAvailability) → invalid query 422 → payment (402, 200, 202 or
 * 429): on chain with a `payment-signature`, else from credit with a
 * `credit-token` (docs/credit.md#credit-tokens). A feed that cannot serve asks no payment and takes none, whatever
 * header the request carries; only a retry of a payment it already took
 * while it could serve is answered as always (its stored response, its
 * receipt; a credit call's stored bytes).
 */
@inject()
export class ServeFeed {
  constructor(
    private feeds: FeedDirectory,
    private reader: FeedReader,
    private availability: FeedAvailability,
    private wallet: PlatformWallet,
    private clock: Clock,
    private chain: ChainConfig
  ) {}

  async execute(request: FeedRequest): Promise<PaidCallResult> {
    const startedAt = this.clock.now()
    const { feed, path } = await this.#find(request.feed)
    try {
      await this.availability.assertServable(feed)
    } catch (error) {
      const retry = request.paymentHeader ?? request.credit?.paymentIdentifier
      const replayed = retry && (await this.#replay(feed, path, request, startedAt))
      if (replayed) return replayed
      throw error
    }
    const query = (await this.reader.validateQuery(feed, request.query)) as Record<string, string>
    if (!request.paymentHeader && request.credit) {
      const creditCall = await app.container.make(ServeCreditCall)
      const call = creditCall.execute({
        feed,
        path,
        query,
        ...request.credit,
        agentName: request.agentName,
        startedAt,
        paymentRequired: (error) => this.#paymentRequired({ feed, path, query }, error),
      })
      return metrics.paidCallOf('credit', call)
    }
    if (!request.paymentHeader) {
      return { kind: 'payment_required', body: this.#paymentRequired({ feed, path, query }) }
    }
    // Resolved only for a paying request: the unpaid 402 is the hot path, and building the
    // paid call's collaborators costs it about 15 µs per request (bench/paid_call.bench.ts).
    const paidCall = await app.container.make(ServePaidCall)
    const call = paidCall.execute({
      resource: this.#paidResource({ feed, path, query }),
      paymentHeader: request.paymentHeader,
      agentName: request.agentName,
      startedAt,
      log: request.log,
    })
    return metrics.paidCallOf('onchain', call)
  }

  #paymentRequired(call: FeedCall, error?: ErrorCode) {
    const options = { payTo: this.wallet.address, network: this.chain.network, error }
    return feedPaymentRequired(call, options)
  }

  /** The feed call as the paid call sells it: its data, fetched once the payment is claimed. */
  #paidResource(call: FeedCall): PaidResource {
    const { feed, path, query } = call
    return {
      purpose: 'feed',
      feedId: feed.id,
      price: feed.priceMicrostx,
      resource: resourceIdentity('GET', path, query),
      paymentRequired: (error) => this.#paymentRequired(call, error),
      // Serialised once: the same bytes are served now, stored, and replayed.
      serve: async () =>
        JSON.stringify(paidBody(feed.priceMicrostx, await this.reader.read(feed, query))),
    }
  }

  /** The answer to a retry of a payment (or credit call) already taken for this call; null for any other. */
  async #replay(feed: Feed, path: string, request: FeedRequest, startedAt: number) {
    let query: Record<string, string>
    try {
      query = (await this.reader.validateQuery(feed, request.query)) as Record<string, string>
    } catch (error) {
      // No payment was ever taken for a query the feed refuses.
      if (error instanceof vineErrors.E_VALIDATION_ERROR) return null
      throw error
    }
    if (!request.paymentHeader) {
      const creditCall = await app.container.make(ServeCreditCall)
      return creditCall.replay({
        feed,
        path,
        query,
        ...request.credit!,
        agentName: request.agentName,
        startedAt,
        paymentRequired: (error) => this.#paymentRequired({ feed, path, query }, error),
      })
    }
    const paidCall = await app.container.make(ServePaidCall)
    return paidCall.replay({
      resource: this.#paidResource({ feed, path, query }),
      paymentHeader: request.paymentHeader!,
      agentName: request.agentName,
      startedAt,
      log: request.log,
    })
  }

  /** The feed and its path; an unknown one is answered with the feed its name is likely a typo of. */
  async #find(ref: FeedRef) {
    if ('id' in ref) {
      const feed = await this.feeds.builtin(ref.id)
      if (!feed) throw new E_FEED_NOT_FOUND(ref.id, await this.feeds.closestTo(ref.id))
      return { feed, path: paidFeedPath({ id: feed.slug }) }
    }
    const { handle, slug } = ref
    const feed = await this.feeds.ofProvider(handle, slug)
    if (!feed) {
      throw new E_FEED_NOT_FOUND(
        `${handle}/${slug}`,
        await this.feeds.closestTo(`${handle}/${slug}`)
      )
    }
    return { feed, path: paidFeedPath({ handle, slug: feed.slug }) }
  }
}
