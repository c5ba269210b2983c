import type { DiscoveryExtension } from '@x402/extensions/bazaar'
import type { Caip2NetworkId, NetworkPreset } from '#chain/network'
import type { Microstx } from '#ledger/money'
import type { CreditExtension } from '#credit/credit_extension'

/** x402 protocol version 2 shapes, as Tollbooth speaks them for STX. */
export const X402_VERSION = 2
export const MAX_TIMEOUT_SECONDS = 300

export interface X402Resource {
  url: string
  description: string
  mimeType: string
}

export interface ExactStxRequirement {
  scheme: 'exact'
  network: Caip2NetworkId
  /** µSTX as a decimal string. */
  amount: string
  asset: 'STX'
  payTo: string
  maxTimeoutSeconds: number
  extra: Record<string, unknown>
}

export interface PaymentRequired {
  x402Version: 2
  error?: string
  resource: X402Resource
  accepts: ExactStxRequirement[]
  extensions: {
    'payment-identifier': typeof PAYMENT_IDENTIFIER_DECLARATION
    /** How to call the resource and what it answers (x402's Bazaar discovery extension). */
    'bazaar'?: DiscoveryExtension
    /** The second way to pay: prepaid credit and its token (docs/credit.md#credit-tokens). */
    'credit'?: CreditExtension | { info: CreditExtension['info'] }
  }
}

/**
 * x402's payment-identifier extension, declared optional: a client that sends
 * an id (`extensions["payment-identifier"].info.id`) with its payment gets the
 * stored response again when it retries the same payment, instead of
 * `payment_already_used`.
 */
export const PAYMENT_IDENTIFIER_DECLARATION = {
  info: { required: false },
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      required: { type: 'boolean' },
      id: { type: 'string', minLength: 16, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' },
    },
    required: ['required'],
  },
} as const

/**
 * What the `payment-required` header carries: the 402's body without its
 * Bazaar extension and without the credit extension's schema. A feed's
 * declared schema and example can run to tens of KB, beyond what proxies
 * (nginx's 4–8 KB header buffers) and clients (undici's 16 KB of headers)
 * take; the body carries the whole declaration, and the discovery API serves
 * it too.
 */
export function headerPaymentRequired(body: PaymentRequired): PaymentRequired {
  const extensions = { ...body.extensions }
  delete extensions.bazaar
  if (extensions.credit) extensions.credit = { info: extensions.credit.info }
  return { ...body, extensions }
}

export interface SettlementResponse {
  success: boolean
  /** 0x-prefixed txid, or "" when nothing was broadcast. */
  transaction: string
  network: string
  payer?: string
  errorReason?: string
}

/**
 * The identity of a paid resource: method + path + query parameters sorted by
 * name, so `?b=2&a=1` and `?a=1&b=2` are the same purchase.
 */
export function resourceIdentity(method: string, path: string, query: Record<string, string>) {
  const search = new URLSearchParams(
    Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  )
  const suffix = search.toString()
  return `${method.toUpperCase()} ${path}${suffix ? `?${suffix}` : ''}`
}

export function paymentRequired(options: {
  baseUrl: string
  path: string
  query: Record<string, string>
  description: string
  price: Microstx
  payTo: string
  network: NetworkPreset
  error?: string
  bazaar?: DiscoveryExtension
  credit?: CreditExtension
}): PaymentRequired {
  const search = resourceIdentity('GET', options.path, options.query).split(' ')[1]
  return {
    x402Version: X402_VERSION,
    ...(options.error ? { error: options.error } : {}),
    resource: {
      url: `${options.baseUrl}${search}`,
      description: options.description,
      mimeType: 'application/json',
    },
    accepts: [
      {
        scheme: 'exact',
        network: options.network.caip2,
        amount: options.price.toString(),
        asset: 'STX',
        payTo: options.payTo,
        maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
        extra: {},
      },
    ],
    extensions: {
      'payment-identifier': PAYMENT_IDENTIFIER_DECLARATION,
      ...(options.bazaar && { bazaar: options.bazaar }),
      ...(options.credit && { credit: options.credit }),
    },
  }
}
