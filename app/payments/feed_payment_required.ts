import type { NetworkPreset } from '#chain/network'
import { bootedConfig } from '#core/injectable_config'
import { publicUrl } from '#core/public_url'
import { creditExtension } from '#credit/credit_extension'
import { CreditConfig } from '#credit/define_config'
import type { ErrorCode } from '#core/error_codes'
import { bazaarExtension } from '#discovery/bazaar_extension'
import { feedDeclaration } from '#feeds/feed_declaration'
import type Feed from '#models/feed'
import { type PaymentRequired, paymentRequired } from '#payments/x402'

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
 */
export function feedPaymentRequired(
  request: FeedCall,
  options: { payTo: string; network: NetworkPreset; error?: ErrorCode }
): PaymentRequired {
  const baseUrl = publicUrl()
  return paymentRequired({
    baseUrl,
    path: request.path,
    query: request.query,
    description: request.feed.description || request.feed.displayName,
    price: request.feed.priceMicrostx,
    bazaar: bazaarExtension(feedDeclaration(request.feed), request),
    credit: creditExtension(baseUrl, options.network, creditConfig()),
    ...options,
  })
}
