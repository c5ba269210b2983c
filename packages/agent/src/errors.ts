/** Every error the client throws: `code` tells the kinds apart without `instanceof`. */
export class AgentError extends Error {
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.name = new.target.name
    this.code = code
  }
}

/** The price is above the per-call cap, or would take the total over the budget. Nothing was signed. */
export class OverCapError extends AgentError {
  readonly cap: 'per_call' | 'budget'
  readonly priceMicrostx: bigint
  /** The per-call cap, or what is left of the budget. */
  readonly capMicrostx: bigint
  constructor(cap: 'per_call' | 'budget', priceMicrostx: bigint, capMicrostx: bigint) {
    super(
      'over_cap',
      cap === 'per_call'
        ? `the price ${priceMicrostx} µSTX is above the per-call cap of ${capMicrostx} µSTX`
        : `the price ${priceMicrostx} µSTX is more than the ${capMicrostx} µSTX left of the budget`
    )
    this.cap = cap
    this.priceMicrostx = priceMicrostx
    this.capMicrostx = capMicrostx
  }
}

/** The 402 asks for a payment on another network than the client's. Nothing was signed. */
export class NetworkMismatchError extends AgentError {
  readonly expected: string
  readonly offered: string[]
  constructor(expected: string, offered: string[]) {
    super(
      'network_mismatch',
      `the server asks for payment on ${offered.join(', ') || 'no network'}, this client pays on ${expected}`
    )
    this.expected = expected
    this.offered = offered
  }
}

/** The 402 asks to pay an address not in the client's `allowedPayTo`. Nothing was signed. */
export class PayToNotAllowedError extends AgentError {
  readonly payTo: string
  constructor(payTo: string) {
    super('pay_to_not_allowed', `the server asks to pay ${payTo}, which is not in allowedPayTo`)
    this.payTo = payTo
  }
}

/** The 402 is not an x402 v2 payment requirement this client can pay. Nothing was signed. */
export class MalformedPaymentRequiredError extends AgentError {
  constructor(reason: string) {
    super('malformed_402', `the server's 402 is not a payable x402 v2 requirement: ${reason}`)
  }
}

/** The server took the payment (on chain, or from credit) but its 200 carries no `data`. */
export class PaidWithoutDataError extends AgentError {
  /** The transfer that paid; null when the call was paid from credit. */
  readonly txid: string | null
  readonly body: unknown
  constructor(txid: string | null, body: unknown) {
    super(
      'paid_without_data',
      `paid (${txid ? `transaction ${txid}` : 'from credit'}) but the answer has no data`
    )
    this.txid = txid
    this.body = body
  }
}

/** What collects a payment still settling: GET `statusUrl` with header `x-payment-receipt: token`. */
export interface Receipt {
  txid: string
  token?: string
  statusUrl: string
}

/**
 * The payment is still settling after the wait: for a call, collect its data later with the
 * receipt; for a credit top-up (`paying: 'top_up'`), the credit is added once it confirms.
 */
export class PendingError extends AgentError {
  readonly txid: string
  readonly receipt: Receipt
  /** What the payment buys: a call's data, or credit. */
  readonly paying: 'call' | 'top_up'
  constructor(txid: string, receipt: Receipt, paying: 'call' | 'top_up' = 'call') {
    super(
      'pending',
      paying === 'top_up'
        ? `the credit top-up (transaction ${txid}) is still settling: the credit is added once it confirms (follow it at ${receipt.statusUrl}); the call was not made`
        : `transaction ${txid} is still settling: collect the data at ${receipt.statusUrl}`
    )
    this.txid = txid
    this.receipt = receipt
    this.paying = paying
  }
}

/** One invalid field of a refusal (a 422's `fields`): `field` is `""` for the request as a whole. */
export interface FieldError {
  field: string
  message: string
  rule?: string
}

/** The server refused the call (its error code, message and invalid fields). */
export class RefusedError extends AgentError {
  readonly status: number
  readonly serverCode: string
  readonly serverMessage: string
  /** The service's `error.fields` (empty when it named none). */
  readonly fields: FieldError[]
  /** True when the server provably took nothing (the transfer was not broadcast). */
  readonly nothingPaid: boolean
  /** The transfer this call sent (`0x…`), or null when the refusal came before one was signed. */
  readonly txid: string | null
  constructor(
    status: number,
    serverCode: string,
    serverMessage: string,
    nothingPaid: boolean,
    details: { fields?: FieldError[]; txid?: string | null } = {}
  ) {
    const sent = details.txid && !nothingPaid ? ` (payment ${details.txid} was sent)` : ''
    super(
      'refused',
      `the server refused the call (${status} ${serverCode})${sent}: ${serverMessage}`
    )
    this.status = status
    this.serverCode = serverCode
    this.serverMessage = serverMessage
    this.fields = details.fields ?? []
    this.nothingPaid = nothingPaid
    this.txid = details.txid ?? null
  }
}

/** The server (or the Stacks API) could not be reached. */
export class UnreachableError extends AgentError {
  readonly url: string
  /** Set when a signed payment was sent and its outcome is unknown (its price stays reserved). */
  readonly txid: string | null
  /**
   * Set when a call paid from credit was sent and its outcome is unknown (its maximum price stays
   * reserved): `get()` again with this `paymentIdentifier` answers the same bytes, debited once.
   */
  readonly paymentIdentifier: string | null
  constructor(
    url: string,
    cause: unknown,
    txid: string | null = null,
    paymentIdentifier: string | null = null
  ) {
    const reason =
      cause instanceof Error
        ? cause.cause instanceof Error
          ? cause.cause.message
          : cause.message
        : String(cause)
    const sent = txid
      ? ` (payment ${txid} was sent; its outcome is unknown)`
      : paymentIdentifier
        ? ` (credit call ${paymentIdentifier} was sent and may have been debited: retry it with that paymentIdentifier, debited once)`
        : ''
    super('unreachable', `could not reach ${url}${sent}: ${reason}`)
    this.url = url
    this.txid = txid
    this.paymentIdentifier = paymentIdentifier
    this.cause = cause
  }
}
