import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Receipt tokens let the buyer of a payment still settling collect its
 * response later. Only the SHA-256 of a token is stored.
 */
export function newReceiptToken() {
  const token = randomBytes(24).toString('base64url')
  return { token, hash: hashReceiptToken(token) }
}

export function hashReceiptToken(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

export function receiptMatches(token: string | undefined, storedHash: string | null) {
  if (!token || !storedHash || token.length > 128) return false
  const presented = Buffer.from(hashReceiptToken(token), 'hex')
  const stored = Buffer.from(storedHash, 'hex')
  return presented.length === stored.length && timingSafeEqual(presented, stored)
}
