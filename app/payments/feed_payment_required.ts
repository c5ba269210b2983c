import type { NetworkPreset } from '#chain/network'
import { bootedConfig } from '#core/injectable_config'
import { publicUrl } from '#core/public_url'
import { creditExtension } from '#credit/credit_extension'
import { CreditConfig } from '#credit/define_config'
import type { ErrorCode } from '#core/error_codes'
import { bazaarExtension } from '#discovery/bazaar_extension'
import { feedDeclaration } from '#feeds/feed_declaration'
import type Feed from '#models/feed'
import { type PaymentRequired, paymentRequired, resourceIdentity } from '#payments/x402'

const creditConfig = bootedConfig(CreditConfig)

/** A call of a feed: the feed, its paid path, the query its driver accepted. */
export interface FeedCall {
  feed: Feed
  path: string
  query: Record<string, string>
}

/**
 * The 402 body (and `payment-required` header) of a feed request, with an
 * error code or not, carrying what the feed takes and answers (Bazaar) and
 * the second way to pay it, prepaid credit.
 * Built once per feed row read and answer (its Bazaar extension rewrites the
 * output schema node by node), not on every unpaid request: the feed
 * directory reads a feed again every second, so a changed feed is seen as
 * soon as before. The object is shared, so it is frozen: extend a copy.
 */
export function feedPaymentRequired(
  request: FeedCall,
  options: { payTo: string; network: NetworkPreset; error?: ErrorCode }
): PaymentRequired {
  const baseUrl = publicUrl()
  const credit = creditConfig()
  const key = JSON.stringify([
    baseUrl,
    resourceIdentity('GET', request.path, request.query),
    options.error ?? null,
    options.payTo,
    options.network.caip2,
    String(credit.topUp.minimumMicrostx),
    String(credit.topUp.maximumMicrostx),
    credit.token.maxLifetimeSeconds,
  ])
  let built = builtFor.get(request.feed)
  if (!built) {
    built = new Map()
    builtFor.set(request.feed, built)
  }
  let required = built.get(key)
  if (!required) {
    if (built.size >= MAX_ANSWERS_PER_FEED) built.clear()
    required = frozen(
      paymentRequired({
        baseUrl,
        path: request.path,
        query: request.query,
        description: request.feed.description || request.feed.displayName,
        price: request.feed.priceMicrostx,
        bazaar: bazaarExtension(feedDeclaration(request.feed), request),
        credit: creditExtension(baseUrl, options.network, credit),
        ...options,
      })
    )
    built.set(key, required)
  }
  return required
}

/** The answers kept per feed row (queries and error codes): a buyer chooses the queries. */
const MAX_ANSWERS_PER_FEED = 32

const builtFor = new WeakMap<Feed, Map<string, PaymentRequired>>()

/**
 * Freezes what the requirements are made of here (not the schemas and
 * examples they point to, which are the feeds' own), so a change meant for
 * one answer throws instead of reaching every later one.
 */
function frozen(required: PaymentRequired): PaymentRequired {
  for (const accepted of required.accepts) {
    Object.freeze(accepted.extra)
    Object.freeze(accepted)
  }
  Object.freeze(required.accepts)
  Object.freeze(required.resource)
  Object.freeze(required.extensions)
  return Object.freeze(required)
}
