import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The header by which this service's paywall, settling through another
 * instance of itself (FACILITATOR_URL, same database and APP_KEY), proves to
 * that facilitator that a payment it claimed (a feed call, a top-up) is its
 * own to settle. Without it, /facilitator/settle refuses a transfer a paid
 * call holds.
 */
export const PAYWALL_PROOF_HEADER = 'x-tollbooth-paywall-proof'

export function paywallProof(key: string, txid: string) {
  return createHmac('sha256', key).update(`paywall-settle:${txid}`).digest('hex')
}

export function isPaywallProof(key: string, txid: string, presented: string | undefined) {
  if (!presented) return false
  const expected = Buffer.from(paywallProof(key, txid))
  const given = Buffer.from(presented)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
