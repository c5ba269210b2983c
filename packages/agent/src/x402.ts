import { MalformedPaymentRequiredError, NetworkMismatchError } from './errors.ts'

/** One entry of a 402's `accepts`. */
export interface PaymentRequirement {
  scheme: 'exact'
  network: string
  amount: string
  asset: 'STX'
  payTo: string
  maxTimeoutSeconds?: number
  extra?: Record<string, unknown>
  [key: string]: unknown
}

export interface PaymentRequired {
  x402Version: 2
  error?: string
  resource?: unknown
  accepts: unknown[]
  extensions?: Record<string, unknown>
}

/** CAIP-2 ids of the Stacks networks (x402 v2). */
export const NETWORK_IDS = {
  mainnet: 'stacks:1',
  testnet: 'stacks:2147483648',
  devnet: 'stacks:2147483648',
} as const

export type NetworkName = keyof typeof NETWORK_IDS

const MAX_AMOUNT = 2n ** 63n - 1n

/** The 402's requirements: its JSON body, else the base64 `payment-required` header. */
export function readPaymentRequired(body: string, header: string | null): PaymentRequired {
  const parsed = parseJson(body) ?? (header ? parseJson(decodeBase64(header)) : null)
  if (!isObject(parsed))
    throw new MalformedPaymentRequiredError('neither the body nor the header is JSON')
  if (parsed.x402Version !== 2) throw new MalformedPaymentRequiredError('x402Version is not 2')
  if (!Array.isArray(parsed.accepts) || parsed.accepts.length === 0) {
    throw new MalformedPaymentRequiredError('no accepts')
  }
  return parsed as unknown as PaymentRequired
}

/**
 * The requirement this client pays: scheme exact, asset STX, its network, an
 * amount written as a decimal string of µSTX, a payTo. Any other network is
 * a mismatch; anything else unpayable is malformed.
 */
export function chooseRequirement(
  required: PaymentRequired,
  networkId: string
): PaymentRequirement {
  const offers = required.accepts.filter(isObject)
  const exactStx = offers.filter((offer) => offer.scheme === 'exact' && offer.asset === 'STX')
  if (exactStx.length === 0) {
    throw new MalformedPaymentRequiredError('no requirement with scheme "exact" and asset "STX"')
  }
  const ours = exactStx.find((offer) => offer.network === networkId)
  if (!ours)
    throw new NetworkMismatchError(
      networkId,
      exactStx.map((offer) => String(offer.network))
    )
  if (
    typeof ours.amount !== 'string' ||
    !/^[1-9]\d{0,18}$/.test(ours.amount) ||
    BigInt(ours.amount) > MAX_AMOUNT
  ) {
    throw new MalformedPaymentRequiredError('amount is not a positive decimal string of µSTX')
  }
  if (typeof ours.payTo !== 'string' || !/^S[PMTN][0-9A-Z]{28,41}$/.test(ours.payTo)) {
    throw new MalformedPaymentRequiredError('payTo is not a Stacks address')
  }
  return ours as PaymentRequirement
}

/** The `payment-signature` header: x402 v2's payload with the payment-identifier extension. */
export function paymentSignature(
  required: PaymentRequired,
  accepted: PaymentRequirement,
  transactionHex: string,
  paymentIdentifier: string
): string {
  const payload = {
    x402Version: 2,
    ...(required.resource === undefined ? {} : { resource: required.resource }),
    accepted,
    payload: { transaction: transactionHex },
    extensions: { 'payment-identifier': { info: { required: false, id: paymentIdentifier } } },
  }
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64')
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function decodeBase64(value: string): string {
  return Buffer.from(value, 'base64').toString('utf8')
}
