import { createHash } from 'node:crypto'
import { signerOf, statementOf } from '#auth/siws_message'
import { formatStx, type Microstx, parseStx } from '#ledger/money'

/** What a refund's challenge names, and the refund's idempotency key. */
export interface RefundTerms {
  /** The refunded wallet: its credit is debited and the amount paid to it, never elsewhere. */
  address: string
  amount: Microstx
  /** The challenge's nonce. */
  nonce: string
  /** Derived from the nonce: the same signed message is the same refund. */
  idempotencyKey: string
}

const STATEMENT = /^Refund (\d+(?:\.\d+)?) STX of my Tollbooth credit to (\S+)\.$/

/**
 * The statement a wallet signs to refund `amount` of its credit: it names the
 * amount and the destination, which is the signing wallet itself, so a
 * signature can neither move more nor send it anywhere else.
 */
export function refundStatement(amount: Microstx, address: string): string {
  return `Refund ${formatStx(amount)} STX of my Tollbooth credit to ${address}.`
}

/**
 * The terms of a signed refund message as a client sends it back, or null
 * when it is no refund message. Only trusted once the challenge with that
 * nonce is found to hold this exact message, issued to that wallet.
 */
export function refundTermsOf(message: string): RefundTerms | null {
  const signer = signerOf(message)
  const stated = STATEMENT.exec(statementOf(message) ?? '')
  const amount = stated ? parseStx(stated[1]) : null
  // A refund of nothing is no refund (the ledger posts no zero entry): refused as unknown.
  if (!signer || !stated || !amount || stated[2] !== signer.address) return null
  if (refundStatement(amount, signer.address) !== stated[0]) return null
  return {
    address: signer.address,
    amount,
    nonce: signer.nonce,
    idempotencyKey: idempotencyKeyOf(signer.nonce),
  }
}

/** A UUID from the challenge nonce (the withdrawals' idempotency key is a uuid). */
function idempotencyKeyOf(nonce: string): string {
  const hex = createHash('sha256').update(`credit_refund:${nonce}`).digest('hex')
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20, 32),
  ].join('-')
}
