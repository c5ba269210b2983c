import type { HttpContext } from '@adonisjs/core/http'
import { ERROR_CODES, type ErrorCode } from '#core/error_codes'
import {
  headerPaymentRequired,
  type PaymentRequired,
  type SettlementResponse,
} from '#payments/x402'
import { encodeHeader, encodeSettlementResponse } from '#payments/x402_codec'
import { CREDIT_BALANCE_HEADER } from '#credit/credit_extension'
import type { Microstx } from '#ledger/money'

/** The x402 body of a payment that failed on chain (no requirements: paying again buys nothing). */
export interface PaymentFailedBody {
  x402Version: 2
  error: 'payment_failed'
}

export interface PendingBody {
  x402Version: 2
  error: 'settlement_pending'
  /** How to collect the response later (absent on the status route itself). */
  receipt?: { txid: string; token?: string; status_url: string }
}

/** What a paid request comes to; errors (429, 503, a failed source) are thrown instead. */
export type PaidCallResult =
  | {
      kind: 'payment_required'
      body: PaymentRequired | PaymentFailedBody
      settlement?: SettlementResponse
    }
  | {
      kind: 'paid'
      /** The exact JSON text of the paid response (a replay returns the same bytes). */
      body: string
      /** The payment-response of a call paid on chain. */
      settlement?: SettlementResponse
      /** Time spent broadcasting and waiting for the block, and the rest (absent for a replay). */
      timing?: { chainMs: number; appMs: number }
      /** A call paid from credit: what the wallet and its token have left. */
      credit?: { balance: Microstx; tokenRemaining: Microstx }
    }
  | {
      kind: 'pending'
      body: PendingBody
      settlement: SettlementResponse
    }

/** The transaction a payment-response names; none when the header did not decode to one. */
export interface SettledTransaction {
  txid: string
  payer: string
}

/**
 * The x402 `payment-response` object — the paywall's header and the
 * facilitator's /settle answer alike: success without a reason, a failure
 * with its code.
 */
export function settlementResponse(
  network: string,
  transaction: SettledTransaction | undefined,
  errorReason?: ErrorCode
): SettlementResponse {
  return {
    success: errorReason === undefined,
    transaction: transaction ? `0x${transaction.txid}` : '',
    network,
    ...(transaction ? { payer: transaction.payer } : {}),
    ...(errorReason ? { errorReason } : {}),
  }
}

/**
 * An error thrown after the payment header decoded, with the payment-response
 * its answer carries: the exception handler writes the header, then reports
 * and renders the cause as it would without it. One wrapper per request, as
 * concurrent requests may share the cause (one source fetch for all of them).
 */
export class PaidCallFailure extends Error {
  constructor(
    readonly settlement: SettlementResponse,
    options: { cause: unknown }
  ) {
    super('the paid call failed after its payment header decoded', options)
  }
}

export function setPaymentResponse(
  response: HttpContext['response'],
  settlement: SettlementResponse | undefined
) {
  response.header(
    'access-control-expose-headers',
    `payment-required, payment-response, ${CREDIT_BALANCE_HEADER}`
  )
  if (settlement) response.header('payment-response', encodeSettlementResponse(settlement))
}

const STATUS: Record<PaidCallResult['kind'], number> = {
  payment_required: 402,
  paid: 200,
  pending: 202,
}

/**
 * Writes a paid call's result: status, x402 headers, body. Paid data is the
 * buyer's alone: no cache on the way keeps it (`no-store`), for another
 * client to get without paying.
 */
export function sendPaidCallResult(response: HttpContext['response'], result: PaidCallResult) {
  setPaymentResponse(response, result.settlement)
  response.status(STATUS[result.kind])
  switch (result.kind) {
    case 'payment_required': {
      const { json, header } = serialised(result.body)
      if (header) response.header('payment-required', header)
      response.header('content-type', 'application/json; charset=utf-8')
      return response.send(json)
    }
    case 'paid':
      if (result.timing) {
        const { chainMs, appMs } = result.timing
        response.header(
          'server-timing',
          `chain;dur=${chainMs};desc="broadcast and confirmation", app;dur=${appMs}`
        )
      }
      if (result.credit) {
        const { balance, tokenRemaining } = result.credit
        response.header(
          CREDIT_BALANCE_HEADER,
          `balance=${balance}; token_remaining=${tokenRemaining}`
        )
      }
      response.header('content-type', 'application/json; charset=utf-8')
      response.header('cache-control', 'no-store')
      return response.send(result.body)
    case 'pending':
      response.header('retry-after', String(ERROR_CODES.settlement_pending.retryAfterSeconds))
      return response.send(result.body)
    default: {
      const unknownResult: never = result
      throw new Error(`unknown paid call result ${JSON.stringify(unknownResult)}`)
    }
  }
}

const serialisedBodies = new WeakMap<
  PaymentRequired | PaymentFailedBody,
  { json: string; header: string | null }
>()

/**
 * A 402's body as JSON text and its `payment-required` header, made once per
 * body: feedPaymentRequired hands every unpaid request of a feed the same
 * frozen requirements, so neither is serialised again.
 */
function serialised(body: PaymentRequired | PaymentFailedBody) {
  let text = serialisedBodies.get(body)
  if (!text) {
    text = {
      json: JSON.stringify(body),
      header: 'accepts' in body ? encodeHeader(headerPaymentRequired(body)) : null,
    }
    serialisedBodies.set(body, text)
  }
  return text
}
