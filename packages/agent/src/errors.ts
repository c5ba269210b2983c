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
  constructor(
    readonly cap: 'per_call' | 'budget',
    readonly priceMicrostx: bigint,
    /** The per-call cap, or what is left of the budget. */
    readonly capMicrostx: bigint
  ) {
    super(
      'over_cap',
      cap === 'per_call'
        ? `the price ${priceMicrostx} µSTX is above the per-call cap of ${capMicrostx} µSTX`
        : `the price ${priceMicrostx} µSTX is more than the ${capMicrostx} µSTX left of the budget`
    )
  }
}

/** The 402 asks for a payment on another network than the client's. Nothing was signed. */
export class NetworkMismatchError extends AgentError {
  constructor(
    readonly expected: string,
    readonly offered: string[]
  ) {
    super(
      'network_mismatch',
      `the server asks for payment on ${offered.join(', ') || 'no network'}, this client pays on ${expected}`
    )
  }
}

/** The 402 is not an x402 v2 payment requirement this client can pay. Nothing was signed. */
export class MalformedPaymentRequiredError extends AgentError {
  constructor(reason: string) {
    super('malformed_402', `the server's 402 is not a payable x402 v2 requirement: ${reason}`)
  }
}

/** The server took the payment but its 200 carries no `data`. */
export class PaidWithoutDataError extends AgentError {
  constructor(
    readonly txid: string | null,
    readonly body: unknown
  ) {
    super(
      'paid_without_data',
      `paid${txid ? ` (transaction ${txid})` : ''} but the answer has no data`
    )
  }
}

/** The payment is still settling after the wait: collect the data later with the receipt. */
export class PendingError extends AgentError {
  constructor(
    readonly txid: string,
    readonly receipt: { txid: string; token?: string; statusUrl: string }
  ) {
    super(
      'pending',
      `transaction ${txid} is still settling: collect the data at ${receipt.statusUrl}`
    )
  }
}

/** The server refused the call (its error code and message). */
export class RefusedError extends AgentError {
  constructor(
    readonly status: number,
    readonly serverCode: string,
    readonly serverMessage: string,
    /** True when the server provably took nothing (the transfer was not broadcast). */
    readonly nothingPaid: boolean
  ) {
    super('refused', `the server refused the call (${status} ${serverCode}): ${serverMessage}`)
  }
}

/** The server (or the Stacks API) could not be reached. */
export class UnreachableError extends AgentError {
  constructor(
    readonly url: string,
    cause: unknown,
    /** Set when a signed payment was sent and its outcome is unknown. */
    readonly txid: string | null = null
  ) {
    super(
      'unreachable',
      `could not reach ${url}${txid ? ` (payment ${txid} was sent; its outcome is unknown)` : ''}: ${
        cause instanceof Error
          ? cause.cause instanceof Error
            ? cause.cause.message
            : cause.message
          : String(cause)
      }`
    )
    this.cause = cause
  }
}
