import type { DiscoveryExtension } from '@x402/extensions/bazaar'
import type { NetworkPreset } from '#chain/network'
import { publicUrl } from '#core/public_url'
import type { ErrorCode } from '#core/error_codes'
import { bazaarExtension } from '#discovery/bazaar_extension'
import { feedDeclaration } from '#feeds/feed_declaration'
import type Feed from '#models/feed'
import { type PaymentRequired, paymentRequired, resourceIdentity } from '#payments/x402'

/** A call of a feed: the feed, its paid path, the query its driver accepted. */
export interface FeedCall {
  feed: Feed
  path: string
  query: Record<string, string>
}

/**
 * The 402 body (and `payment-required` header) of a feed request, with an
 * error code or not, carrying what the feed takes and answers (Bazaar).
 */
export function feedPaymentRequired(
  request: FeedCall,
  options: { payTo: string; network: NetworkPreset; error?: ErrorCode }
): PaymentRequired {
  return paymentRequired({
    baseUrl: publicUrl(),
    path: request.path,
    query: request.query,
    description: request.feed.description || request.feed.displayName,
    price: request.feed.priceMicrostx,
    bazaar: bazaarOf(request),
    ...options,
  })
}

/** The queries whose Bazaar extension is kept per feed row: a buyer chooses them. */
const MAX_QUERIES_PER_FEED = 32

const bazaarExtensions = new WeakMap<Feed, Map<string, DiscoveryExtension>>()

/**
 * The Bazaar extension of a call, built once per feed row read instead of on
 * every unpaid request (its output schema is rewritten node by node): the
 * feed directory reads a feed again every second, so a changed feed is seen
 * as soon as before. It is only ever serialised, never changed.
 */
function bazaarOf(call: FeedCall): DiscoveryExtension {
  let extensions = bazaarExtensions.get(call.feed)
  if (!extensions) {
    extensions = new Map()
    bazaarExtensions.set(call.feed, extensions)
  }
  const key = resourceIdentity('GET', call.path, call.query)
  let extension = extensions.get(key)
  if (!extension) {
    if (extensions.size >= MAX_QUERIES_PER_FEED) extensions.clear()
    extension = bazaarExtension(feedDeclaration(call.feed), call)
    extensions.set(key, extension)
  }
  return extension
}
