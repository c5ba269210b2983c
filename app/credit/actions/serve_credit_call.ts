import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import type { ErrorCode } from '#core/error_codes'
import type { RequestLog } from '#core/request_log'
import { creditBalanceOf } from '#credit/credit_balance'
import { type CreditToken, CreditTokens } from '#credit/credit_tokens'
import {
  E_CREDIT_CALL_OUTCOME_UNKNOWN,
  E_CREDIT_TOKEN_INVALID,
  E_PAYMENT_IDENTIFIER_CONFLICT,
} from '#credit/exceptions'
import { FeedReader } from '#feeds/feed_reader'
import { accounts } from '#ledger/accounts'
import { E_EXCEEDS_CREDITS } from '#ledger/exceptions'
import { Ledger } from '#ledger/ledger'
import { metrics } from '#metrics/metrics'
import type { Microstx } from '#ledger/money'
import { splitPayment } from '#ledger/split'
import type Feed from '#models/feed'
import { paidBody } from '#payments/paid_body'
import type { PaidCallResult } from '#payments/paid_call_response'
import { type PaymentRequired, resourceIdentity } from '#payments/x402'
import { QueryLog } from '#stats/query_log'
import { prepared } from '#core/prepared'

export interface CreditCallRequest {
  feed: Feed
  path: string
  /** The query parameters the driver accepted. */
  query: Record<string, string>
  /** The `credit-token` header. */
  token: string
  /** The `payment-identifier` header: a retry with it gets the first call's bytes. */
  paymentIdentifier?: string
  agentName?: string
  startedAt: number
  /** The request's log lines: they carry the credit call's id once it is written. */
  log: RequestLog
  /** The feed's 402 with a refusal's code: its on-chain requirement and the credit extension. */
  paymentRequired(error: ErrorCode): PaymentRequired
}

/** Why a served call was not debited: nothing was written. */
type Refusal = 'credit_spend_cap_reached' | 'insufficient_credit' | 'replayed'

/**
 * A call paid from prepaid credit (docs/credit.md#credit-tokens), in order:
 * the token (401) → a retry by payment-identifier (the stored bytes, nothing
 * debited) → the token's signed limits and the wallet's balance (402, the
 * feed's requirements with the code: both ways to pay) → fetch → one
 * transaction: the call and its bytes, the token's spend within its cap, the
 * ledger posting (credit → provider 97 % / platform 3 %, as a payment) and
 * the query log. A source failure debits nothing; no lock is held across the
 * fetch, so the checks before it are repeated, atomically, in the transaction.
 */
@inject()
export class ServeCreditCall {
  constructor(
    private db: Database,
    private tokens: CreditTokens,
    private reader: FeedReader,
    private ledger: Ledger,
    private queryLog: QueryLog,
    private clock: Clock
  ) {}

  async execute(request: CreditCallRequest): Promise<PaidCallResult> {
    const token = await this.tokens.find(request.token)
    if (!token) throw new E_CREDIT_TOKEN_INVALID()
    const price = request.feed.priceMicrostx
    const resource = resourceIdentity('GET', request.path, request.query)

    const replayed = await this.#replay(token, request, resource)
    if (replayed) return replayed
    const refused = (code: ErrorCode) => this.#refusedUnlessServed(token, request, resource, code)
    if (price > token.maxPrice) return refused('credit_price_above_limit')
    if (token.spent + price > token.spendCap) return refused('credit_spend_cap_reached')
    // A cheap read first: a wallet that cannot pay is not served a fetch.
    if ((await creditBalanceOf(this.db.connection(), token.address)) < price) {
      return refused('insufficient_credit')
    }

    const served = await this.reader.read(request.feed, request.query)
    const body = JSON.stringify(paidBody(price, served))
    const outcome = await this.#debit(token, request, { resource, price, body })
    if (outcome === 'replayed') {
      // A concurrent retry with the same payment-identifier was debited first.
      return (await this.#replay(token, request, resource))!
    }
    if (typeof outcome === 'string') return refused(outcome)
    return { kind: 'paid', body, credit: outcome }
  }

  /**
   * The refusal, unless a concurrent call with the same payment-identifier
   * was served meanwhile (after this one looked for it): then its bytes, as
   * for any retry, whatever the limits or the balance now.
   */
  async #refusedUnlessServed(
    token: CreditToken,
    request: CreditCallRequest,
    resource: string,
    code: ErrorCode
  ): Promise<PaidCallResult> {
    const replayed = await this.#replay(token, request, resource)
    return replayed ?? this.#refused(request, code)
  }

  /**
   * A retry of a call already served and debited, answered with its stored
   * bytes even when the feed can no longer serve (paused, stale); null when
   * the request is no such retry (no payment-identifier, no valid token, no
   * call of the token's wallet with that id).
   */
  async replay(request: CreditCallRequest): Promise<PaidCallResult | null> {
    if (request.paymentIdentifier === undefined) return null
    const token = await this.tokens.find(request.token)
    if (!token) return null
    return this.#replay(token, request, resourceIdentity('GET', request.path, request.query))
  }

  /** The stored answer of this wallet's call with the same payment-identifier; null if none. */
  async #replay(
    token: CreditToken,
    request: CreditCallRequest,
    resource: string
  ): Promise<PaidCallResult | null> {
    if (request.paymentIdentifier === undefined) return null
    const call = await this.db
      .from('credit_calls')
      .where({ payer: token.address, payment_identifier: request.paymentIdentifier })
      .select('resource', 'response')
      .first()
    if (!call) return null
    if (call.resource !== resource) throw new E_PAYMENT_IDENTIFIER_CONFLICT()
    const current = await this.tokens.find(request.token)
    return {
      kind: 'paid',
      body: call.response,
      credit: {
        balance: await creditBalanceOf(this.db.connection(), token.address),
        tokenRemaining: (current ?? token).spendCap - (current ?? token).spent,
      },
    }
  }

  /**
   * Debits the call in one transaction, or writes nothing: the call with its
   * bytes (first: a concurrent call with the same payment-identifier waits on
   * its row and replays it, never reaching the limits), the token's spend
   * (refused past its cap, or expired: 401), the ledger posting (refused
   * below a zero balance: the database checks every credit account) and the
   * query log.
   */
  async #debit(
    token: CreditToken,
    request: CreditCallRequest,
    call: { resource: string; price: Microstx; body: string }
  ): Promise<{ balance: Microstx; tokenRemaining: Microstx } | Refusal> {
    const trx = await this.db.transaction()
    try {
      const outcome = await this.#debitIn(trx, token, request, call)
      if (typeof outcome === 'string') {
        await trx.rollback()
      } else {
        await trx.commit().catch((error: unknown) => {
          // Refused at commit, or the connection lost during it: the debit may have happened.
          // Only a retry with the call's payment-identifier can tell without debiting twice.
          if (request.paymentIdentifier === undefined) throw error
          throw new E_CREDIT_CALL_OUTCOME_UNKNOWN(undefined, { cause: error })
        })
        metrics.revenue(call.price, 'credit')
      }
      return outcome
    } catch (error) {
      await trx.rollback()
      if (error instanceof E_EXCEEDS_CREDITS) return 'insufficient_credit'
      throw error
    }
  }

  async #debitIn(
    trx: TransactionClientContract,
    token: CreditToken,
    request: CreditCallRequest,
    { resource, price, body }: { resource: string; price: Microstx; body: string }
  ): Promise<{ balance: Microstx; tokenRemaining: Microstx } | Refusal> {
    const responseMs = this.clock.now() - request.startedAt
    const inserted = await prepared(
      trx.rawQuery(
        `INSERT INTO credit_calls (token_id, payer, feed_id, resource, payment_identifier,
         price_microstx, response, response_ms, created_at)
       VALUES (?, ?, ?, ?, NULLIF(?, ''), ?, ?, ?, ?)
       ON CONFLICT (payer, payment_identifier) DO NOTHING
       RETURNING id`,
        [
          token.id,
          token.address,
          request.feed.id,
          resource,
          request.paymentIdentifier ?? '',
          price.toString(),
          body,
          responseMs,
          new Date(this.clock.now()),
        ]
      )
    )
    // The call first: a concurrent retry with the same payment-identifier waits here on the
    // first's row and answers its bytes, rather than be refused by the spend the first made.
    const callId: string | undefined = inserted.rows[0]?.id
    if (!callId) return 'replayed'
    request.log.bind({ credit_call_id: callId })
    const spent = await this.tokens.spend(trx, token.id, price)
    if (!spent) {
      // The spend also refuses a token that expired since it was found: that is no cap reached.
      if (token.expiresAt.getTime() <= this.clock.now()) throw new E_CREDIT_TOKEN_INVALID()
      return 'credit_spend_cap_reached'
    }

    const providerId = request.feed.providerId
    const paidFrom = accounts.buyerCredit(token.address)
    // No savepoint: a refused posting rolls the whole call back (#debit).
    await this.ledger.post(
      trx,
      {
        kind: 'credit_call',
        reference: callId,
        entries: this.ledger.paymentEntries({ amount: price, providerId, paidFrom }),
      },
      { savepoint: false }
    )
    await this.queryLog.recordPaidCall(trx, {
      feedId: request.feed.id,
      creditCallId: callId,
      payer: token.address,
      agentName: request.agentName,
      price,
      providerShare: providerId === null ? 0n : splitPayment(price).providerShare,
      responseMs,
    })
    return {
      balance: await creditBalanceOf(trx, token.address),
      tokenRemaining: token.spendCap - spent.spent,
    }
  }

  #refused(request: CreditCallRequest, code: ErrorCode): PaidCallResult {
    return { kind: 'payment_required', body: request.paymentRequired(code) }
  }
}
