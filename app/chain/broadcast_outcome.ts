import type { DeclaredCodes } from '#core/error_codes'

/**
 * Decides what a stacks-node answer to POST /v2/transactions means. Pure:
 * HTTP status + parsed body in, outcome out. The one place that knows the
 * node's rejection reasons (stacks-core MemPoolRejection names).
 */

/** Our stable codes, used in API errors and x402 reasons. */
export type RejectionCode = DeclaredCodes<
  | 'invalid_transaction'
  | 'invalid_signature'
  | 'fee_too_low'
  | 'bad_nonce'
  | 'conflicting_nonce'
  | 'too_much_chaining'
  | 'insufficient_funds'
  | 'invalid_network'
  | 'recipient_is_sender'
  | 'invalid_amount'
  | 'unsupported_transaction'
  | 'node_failure'
  | 'rejected'
>

const REASON_CODES: Record<string, RejectionCode> = {
  Serialization: 'invalid_transaction',
  Deserialization: 'invalid_transaction',
  SignatureValidation: 'invalid_signature',
  FeeTooLow: 'fee_too_low',
  BadNonce: 'bad_nonce',
  ConflictingNonceInMempool: 'conflicting_nonce',
  TooMuchChaining: 'too_much_chaining',
  NotEnoughFunds: 'insufficient_funds',
  BadTransactionVersion: 'invalid_network',
  BadAddressVersionByte: 'invalid_network',
  TransferRecipientCannotEqualSender: 'recipient_is_sender',
  TransferAmountMustBePositive: 'invalid_amount',
  NoSuchContract: 'unsupported_transaction',
  NoSuchPublicFunction: 'unsupported_transaction',
  BadFunctionArgument: 'unsupported_transaction',
  ContractAlreadyExists: 'unsupported_transaction',
  NoCoinbaseViaMempool: 'unsupported_transaction',
  NoTenureChangeViaMempool: 'unsupported_transaction',
  PoisonMicroblocksDoNotConflict: 'unsupported_transaction',
  PoisonMicroblockHasUnknownPubKeyHash: 'unsupported_transaction',
  PoisonMicroblockIsInvalid: 'unsupported_transaction',
  ServerFailureNoSuchChainTip: 'node_failure',
  ServerFailureDatabase: 'node_failure',
  ServerFailureOther: 'node_failure',
  EstimatorError: 'node_failure',
  TemporarilyBlacklisted: 'rejected',
}

export type BroadcastOutcome =
  /** The node took the transaction (new, or already known to it). */
  | { kind: 'accepted'; txid: string }
  /** The node refused it for a stated reason: definite, it will not be mined. */
  | { kind: 'rejected'; code: RejectionCode; reason: string; reasonData: unknown; txid?: string }
  /** The node asked us to slow down: it did not take the transaction. */
  | { kind: 'rate_limited'; retryAfterSeconds?: number }
  /** 5xx, time-out, reset, unreadable answer: the node may or may not have it. */
  | { kind: 'unknown'; detail: string }

export function normaliseTxid(value: string): string {
  return value.toLowerCase().replace(/^0x/, '')
}

/** `body` is the parsed JSON answer, undefined when it is not JSON. */
export function decideBroadcastOutcome(
  status: number,
  body: unknown,
  retryAfter?: string | null
): BroadcastOutcome {
  if (status === 200) {
    if (typeof body === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(body)) {
      return { kind: 'accepted', txid: normaliseTxid(body) }
    }
    return { kind: 'unknown', detail: 'the node answered 200 without a transaction id' }
  }
  if (status === 429) {
    // Delay-seconds only (an HTTP date is not honoured); absent is not "0 seconds".
    const seconds = /^\s*\d+\s*$/.test(retryAfter ?? '') ? Number(retryAfter) : undefined
    return { kind: 'rate_limited', retryAfterSeconds: seconds }
  }
  if (status === 400 && body === undefined) {
    // A text/plain 400 (no JSON): stacks-node could not decode the body, so
    // neither took nor will mine it; its mempool names that `Deserialization`.
    return {
      kind: 'rejected',
      code: 'invalid_transaction',
      reason: 'Deserialization',
      reasonData: null,
    }
  }
  if (status >= 400 && status < 500 && isRejectionBody(body)) {
    return {
      kind: 'rejected',
      code: REASON_CODES[body.reason] ?? 'rejected',
      reason: body.reason,
      reasonData: body.reason_data ?? null,
      txid: typeof body.txid === 'string' ? normaliseTxid(body.txid) : undefined,
    }
  }
  return { kind: 'unknown', detail: `the node answered HTTP ${status}` }
}

function isRejectionBody(
  body: unknown
): body is { reason: string; reason_data?: unknown; txid?: unknown } {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { reason?: unknown }).reason === 'string'
  )
}
