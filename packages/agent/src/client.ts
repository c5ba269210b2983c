import { randomBytes } from 'node:crypto'
import { hashMessage } from '@stacks/encryption'
import { networkFrom } from '@stacks/network'
import {
  deserializeTransaction,
  getAddressFromPrivateKey,
  makeSTXTokenTransfer,
  signMessageHashRsv,
} from '@stacks/transactions'
import {
  CREDIT_TOKEN_HEADER,
  type CreditLimits,
  type CreditOffer,
  type CreditOptions,
  CreditTokens,
  readCreditBalance,
  readCreditOffer,
} from './credit.ts'
import {
  AgentError,
  MalformedPaymentRequiredError,
  OverCapError,
  PaidWithoutDataError,
  PayToNotAllowedError,
  PendingError,
  RefusedError,
  UnreachableError,
} from './errors.ts'
import { discoverFeeds, type Feed, type FeedFilter } from './discovery.ts'
import { Payer, type AccountNonces } from './payer.ts'
import { errorCode, refusal } from './refusal.ts'
import { formatStx } from './stx.ts'
import {
  NETWORK_IDS,
  type NetworkName,
  type PaymentRequired,
  type PaymentRequirement,
  chooseRequirement,
  isObject,
  parseJson,
  paymentSignature,
  readPaymentRequired,
} from './x402.ts'

/** Signs for one address (a wallet, a KMS, …). */
export interface Signer {
  address: string
  /** The hex of a signed, not broadcast, STX transfer of `amount` µSTX with exactly this nonce. */
  signTransfer(transfer: { recipient: string; amount: bigint; nonce: bigint }): Promise<string>
  /**
   * The RSV hex signature of a Stacks message, as a wallet's `stx_signMessage` answers it.
   * Needed only to pay from credit (the credit token's message).
   */
  signMessage?(message: string): Promise<string>
}

export interface ClientOptions {
  /** The service, e.g. https://tollbooth.example */
  baseUrl: string
  privateKey?: string
  signer?: Signer
  network: NetworkName
  /** No single call may cost more (µSTX). */
  maxPerCallMicrostx: bigint | number
  /**
   * This client never spends more (µSTX): its on-chain payments (calls and credit top-ups) and its
   * calls paid from credit it did not buy itself (credit the wallet already held) together. Calls
   * paid from its own top-ups are not counted again.
   */
  budgetMicrostx: bigint | number
  /** Stacks API for the account's nonce and the fee estimate (default: Hiro's for the network). */
  stacksApiUrl?: string
  fetch?: typeof globalThis.fetch
  /** Network fee of each transfer (µSTX); default: the Stacks API's estimate. */
  feeMicrostx?: bigint | number
  /** Name shown on the service's leaderboard (`x-agent-name`). */
  agentName?: string
  /** Paid calls in flight at once; the service takes 5 per payer. */
  maxInFlight?: number
  /** How long to wait for one answer before retrying the same payment (default 60 s). */
  requestTimeoutMs?: number
  /** How long to collect a payment still settling before giving up with PendingError (default 120 s). */
  maxPendingMs?: number
  /** Longest wait honoured from a Retry-After (default 10 s). */
  maxRetryAfterMs?: number
  /**
   * The only addresses this client pays (a 402 naming another `payTo` is refused before signing).
   * Default: any, since the client pays whichever x402 v2 Stacks server the caller points it at.
   */
  allowedPayTo?: string[]
  /**
   * Prefer prepaid credit where the service offers it: top up once on chain, then pay calls from
   * the balance with no chain transaction each. Per-call payment stays the fallback.
   */
  credit?: CreditOptions
  /**
   * Host names (`host[:port]`) besides `baseUrl`'s whose credit messages the key signs for this
   * service, e.g. its public name when `baseUrl` is an internal address. Default: none.
   */
  creditHosts?: string[]
}

export interface Purchase<T = unknown> {
  data: T
  /** The whole paid answer: `{data, price, price_stx, data_source, last_updated, stale?}`. */
  body: Record<string, unknown>
  /** `0x…` of the transfer that paid the call; null when it was paid from credit. */
  txid: string | null
  priceMicrostx: bigint
  paidWith: 'chain' | 'credit'
}

export interface Spending {
  /**
   * What counts against the budget: on-chain payments the service took (calls and credit
   * top-ups) and calls paid from credit this client did not buy.
   */
  spentMicrostx: bigint
  /** Calls in flight, the `unknown` payments and the credit calls of unknown outcome. */
  reservedMicrostx: bigint
  remainingMicrostx: bigint
  /** Calls paid on chain. */
  calls: number
  /** Payments sent whose outcome is unknown: reserved until `settle()` finds them on the chain. */
  unknown: UnknownPayment[]
  credit: CreditSpending
}

/** Prepaid credit: what the top-ups bought (counted in `spentMicrostx`) and the calls it paid. */
export interface CreditSpending {
  topUps: number
  topUpsMicrostx: bigint
  /**
   * What this client's top-ups bought that its calls have not spent: calls consume it first,
   * uncounted; beyond it a credit call counts against the budget.
   */
  unspentTopUpsMicrostx: bigint
  /** Calls paid from credit (all of them; the part beyond its own top-ups is in `spentMicrostx`). */
  calls: number
  spentMicrostx: bigint
  /**
   * Payment identifiers of credit calls whose answers were lost: their maximum price stays
   * reserved until `get()` retries them with `{ paymentIdentifier }`.
   */
  unknownCalls: string[]
  /** The wallet's credit as the service last reported it (null: not yet). */
  balanceMicrostx: bigint | null
}

export interface UnknownPayment {
  /** `0x…` */
  txid: string
  priceMicrostx: bigint
}

/** What a feed's call costs and how it can be paid, from its 402; nothing is paid. */
export interface Quote {
  priceMicrostx: bigint
  payTo: string
  /** The service's credit offer (a second way to pay), or null. */
  credit: CreditOffer | null
}

const DEFAULT_STACKS_API: Record<NetworkName, string> = {
  mainnet: 'https://api.hiro.so',
  testnet: 'https://api.testnet.hiro.so',
  devnet: 'http://127.0.0.1:3999',
}
/** Lost answers retried with the same payment before giving up. */
const LOST_ANSWER_RETRIES = 4
/** 429s (the payer's payments in flight) waited out before giving up. */
const BUSY_RETRIES = 10
/** Waits for this client's lower nonces to reach the service before a bad_nonce is final. */
const NONCE_RETRIES = 20
/** 402 codes after which the transfer may be on chain: its nonce is spent, the money may be. */
const TRANSFER_MAY_BE_ON_CHAIN = new Set([
  'payment_already_used',
  'transaction_already_broadcast',
  'payment_failed',
])
/** A credit call whose debit the service could not confirm: the same payment-identifier tells. */
const CREDIT_CALL_OUTCOME_UNKNOWN = 'credit_call_outcome_unknown'

/** A credit token the service no longer takes: a new one (a new signature) may. */
const CREDIT_TOKEN_SPENT = new Set(['credit_token_invalid', 'credit_spend_cap_reached'])

type Answer = { response: Response; text: string }
/** What an on-chain payment buys: one call, or credit of exactly `amount`. */
type Paying = { kind: 'call' } | { kind: 'top_up'; amount: bigint }
/** What a credit call in flight holds: its token's maximum price, from the top-ups, then the budget. */
type CreditHold = { fromTopUps: bigint; fromBudget: bigint }

export type Client = ReturnType<typeof createClient>

/**
 * A buyer of Tollbooth feeds: `feeds()` finds them, `get()` pays for one call
 * within the per-call cap and the budget (from prepaid credit when configured
 * and offered), `spent()` tells what it cost.
 */
export function createClient(options: ClientOptions) {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const networkId = NETWORK_IDS[options.network]
  if (!networkId) throw new AgentError('invalid_options', `unknown network ${options.network}`)
  const stacksApiUrl = (options.stacksApiUrl ?? DEFAULT_STACKS_API[options.network]).replace(
    /\/+$/,
    ''
  )
  const signer = options.signer ?? keySigner(options, stacksApiUrl, fetchImpl)
  const perCallCap = BigInt(options.maxPerCallMicrostx)
  const budget = BigInt(options.budgetMicrostx)
  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000
  const maxPendingMs = options.maxPendingMs ?? 120_000
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000
  const allowedPayTo = options.allowedPayTo && new Set(options.allowedPayTo)
  const agentHeaders: Record<string, string> = options.agentName
    ? { 'x-agent-name': options.agentName }
    : {}
  const ledger = {
    spent: 0n,
    reserved: 0n,
    calls: 0,
    unknown: new Map<string, { priceMicrostx: bigint; nonce: bigint; kind: Paying['kind'] }>(),
  }
  const creditLedger: Omit<CreditSpending, 'unknownCalls'> = {
    topUps: 0,
    topUpsMicrostx: 0n,
    unspentTopUpsMicrostx: 0n,
    calls: 0,
    spentMicrostx: 0n,
    balanceMicrostx: null,
  }
  /** Credit calls whose answers were lost, by payment-identifier: what each still holds. */
  const lostCreditCalls = new Map<string, CreditHold>()
  const credit = options.credit && creditSettings(options.credit, perCallCap, signer)
  const tokens =
    credit &&
    new CreditTokens({
      baseUrl,
      hosts: [new URL(baseUrl).host, ...(options.creditHosts ?? [])],
      address: signer.address,
      signMessage: (message) => signer.signMessage!(message),
      post: async (url, body) => {
        const { response, text } = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).catch((error) => {
          throw new UnreachableError(url, error)
        })
        return { status: response.status, text }
      },
    })
  /** The service's credit offer, from the last 402 that carried one. */
  let creditOffer: CreditOffer | null = null
  /** The top-up in flight: concurrent calls short of credit wait for it instead of paying another. */
  let toppingUp: Promise<boolean> | null = null
  let creditInFlight = 0
  let creditCallsEndedWaiters: (() => void)[] = []
  let settling: Promise<void> | null = null
  const payer = new Payer(
    () => readNonces(fetchImpl, stacksApiUrl, signer.address),
    options.maxInFlight ?? 5
  )

  async function request(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {}
  ): Promise<Answer> {
    const headers = init.headers ?? {}
    const signal = AbortSignal.timeout(requestTimeoutMs)
    // A signed payment, a receipt or a credit token never follows a redirect to whoever it names.
    const secret =
      'payment-signature' in headers ||
      'x-payment-receipt' in headers ||
      CREDIT_TOKEN_HEADER in headers
    const response = await fetchImpl(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body,
      signal,
      redirect: secret ? 'error' : 'follow',
    })
    return { response, text: await response.text() }
  }

  /** An unpaid request: its answer, or UnreachableError. */
  function ask(url: string, method = 'GET') {
    return request(url, { method, headers: agentHeaders }).catch((error) => {
      throw new UnreachableError(url, error)
    })
  }

  function retryAfterMs(response: Response, fallbackSeconds: number) {
    const seconds = Number(response.headers.get('retry-after') ?? fallbackSeconds)
    const ms = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : fallbackSeconds * 1000
    return Math.min(ms, maxRetryAfterMs)
  }

  function left() {
    return budget - ledger.spent - ledger.reserved
  }

  /** What credit calls may still spend: this client's unspent top-ups and what is left of the budget. */
  function creditRoom() {
    return creditLedger.unspentTopUpsMicrostx + left()
  }

  /** What a new credit token signs: its spend cap never above what credit calls may still spend. */
  function tokenLimits(): CreditLimits | null {
    const spendCapMicrostx = min(credit!.spendCapMicrostx, creditRoom())
    if (spendCapMicrostx <= 0n) return null
    return { spendCapMicrostx, maxPriceMicrostx: min(credit!.maxPriceMicrostx, spendCapMicrostx) }
  }

  /**
   * Holds a credit call's most (its token's maximum price) before it is sent: this client's
   * unspent top-ups first, then the budget; null when they do not cover it.
   */
  function holdCredit(amount: bigint): CreditHold | null {
    if (amount > creditRoom()) return null
    const fromTopUps = min(creditLedger.unspentTopUpsMicrostx, amount)
    creditLedger.unspentTopUpsMicrostx -= fromTopUps
    ledger.reserved += amount - fromTopUps
    return { fromTopUps, fromBudget: amount - fromTopUps }
  }

  /**
   * Ends a hold with `price` debited (0: nothing), taken from the unspent top-ups first (a
   * concurrent top-up's included), the rest counted against the budget.
   */
  function endHold(hold: CreditHold, price: bigint) {
    creditLedger.unspentTopUpsMicrostx += hold.fromTopUps
    ledger.reserved -= hold.fromBudget
    const fromTopUps = min(price, creditLedger.unspentTopUpsMicrostx)
    creditLedger.unspentTopUpsMicrostx -= fromTopUps
    ledger.spent += price - fromTopUps
  }

  function creditCallEnded() {
    if (--creditInFlight > 0) return
    for (const resolve of creditCallsEndedWaiters) resolve()
    creditCallsEndedWaiters = []
  }

  /** Resolves once no credit call is in flight: what they held is spent or back. */
  function creditCallsEnded(): Promise<void> {
    if (creditInFlight === 0) return Promise.resolve()
    return new Promise((resolve) => creditCallsEndedWaiters.push(resolve))
  }

  /** Reserves the price of an on-chain payment; a call's is also held to the per-call cap. */
  function reserve(price: bigint, paying: Paying) {
    if (paying.kind === 'call' && price > perCallCap) {
      throw new OverCapError('per_call', price, perCallCap)
    }
    if (price > left()) throw new OverCapError('budget', price, left())
    ledger.reserved += price
  }

  function spent(): Spending {
    return {
      spentMicrostx: ledger.spent,
      reservedMicrostx: ledger.reserved,
      remainingMicrostx: left(),
      calls: ledger.calls,
      unknown: [...ledger.unknown].map(([txid, { priceMicrostx }]) => ({ txid, priceMicrostx })),
      credit: { ...creditLedger, unknownCalls: [...lostCreditCalls.keys()] },
    }
  }

  /** Looks each unknown payment up once; concurrent callers share one look-up. */
  async function settle(): Promise<Spending> {
    settling ??= settleUnknown().finally(() => {
      settling = null
    })
    await settling
    return spent()
  }

  async function settleUnknown() {
    const payments = [...ledger.unknown]
    const statuses = await Promise.all(
      payments.map(([txid]) => readTransferStatus(fetchImpl, stacksApiUrl, txid))
    )
    // A transfer the chain never saw can no longer be mined once its nonce was executed.
    const lastExecuted = statuses.includes('not_found')
      ? await readNonces(fetchImpl, stacksApiUrl, signer.address).then(
          (nonces) => nonces.lastExecuted,
          () => null
        )
      : null
    for (const [index, [txid, { priceMicrostx, nonce, kind }]] of payments.entries()) {
      const status = statuses[index]
      const gone = status === 'not_found' && lastExecuted !== null && lastExecuted >= nonce
      if (status !== 'success' && status !== 'failed' && !gone) continue
      ledger.unknown.delete(txid)
      account(priceMicrostx, status === 'success' ? 'paid' : 'released', kind)
    }
  }

  /** The reserved price moves to spent (`paid`), back to the budget (`released`) or stays reserved. */
  function account(
    price: bigint,
    outcome: 'paid' | 'released' | 'unknown',
    kind: Paying['kind'] = 'call'
  ) {
    if (outcome === 'unknown') return
    ledger.reserved -= price
    if (outcome !== 'paid') return
    ledger.spent += price
    if (kind === 'call') ledger.calls++
    else {
      creditLedger.topUps++
      creditLedger.topUpsMicrostx += price
      creditLedger.unspentTopUpsMicrostx += price
    }
  }

  async function get<T = unknown>(
    feed: string,
    params: Record<string, string | number | boolean> = {},
    retry: { paymentIdentifier?: string } = {}
  ): Promise<Purchase<T>> {
    const url = feedUrl(baseUrl, feed, params)
    const { paymentIdentifier: retried } = retry
    if (retried !== undefined && !PAYMENT_IDENTIFIER.test(retried)) {
      throw new AgentError(
        'invalid_options',
        'a paymentIdentifier is 16–128 letters, digits, - or _'
      )
    }
    // The credit token goes only to the service itself, never to a feed URL of another origin.
    const fromCredit =
      tokens && new URL(url).origin === new URL(baseUrl).origin
        ? await creditCall<T>(url, retried ?? paymentIdentifier())
        : { quote: await ask(url) }
    if ('purchase' in fromCredit) return fromCredit.purchase
    const { quote } = fromCredit
    if (quote.response.status !== 402) throw refusal(quote.response.status, quote.text, true)
    const paid = await payOnChain(url, 'GET', quote, { kind: 'call' })
    return purchase<T>(paid.body, paid.txid, paid.price, 'chain')
  }

  /**
   * One call paid from credit (docs: the service's credit.md): with the client's token and a
   * payment-identifier kept across retries, holding the token's maximum price until the answer
   * tells the price; a token the service no longer takes is renewed once, a balance short of the
   * price topped up once (within the budget). Anything credit cannot fix (no credit offered, a
   * price above the signed maximum, too little left of the top-ups and the budget) hands back the
   * feed's 402 to pay on chain, at its exact price.
   */
  async function creditCall<T>(
    url: string,
    id: string
  ): Promise<{ purchase: Purchase<T> } | { quote: Answer }> {
    let token = tokens!.held()
    if (token === null || creditOffer === null) {
      const quote = await ask(url)
      const offer = quote.response.status === 402 ? offerOf(quote) : null
      const limits = offer && tokenLimits()
      if (!offer || !limits) return { quote }
      creditOffer = offer
      token = await tokens!.token(offer, limits)
    }
    const headers = { ...agentHeaders, 'payment-identifier': id }
    let renewed = false
    let toppedUp = false
    let narrowed = false
    for (;;) {
      // Calls short of credit wait for the top-up in flight rather than hold what it needs.
      if (toppingUp) await toppingUp.catch(() => false)
      const topUpsBefore = creditLedger.topUps
      // A retry of a call whose answer was lost keeps what that call held.
      const hold: CreditHold | null = lostCreditCalls.get(id) ?? holdCredit(token.maxPriceMicrostx)
      lostCreditCalls.delete(id)
      if (!hold) {
        // Less left than the token's maximum price: a token signed for what is left pays a feed
        // that costs no more; else the feed's 402 goes to the per-call payment (and its caps).
        const quote = await ask(url)
        const price = quote.response.status === 402 ? priceOf(quote) : null
        const limits = tokenLimits()
        if (narrowed || price === null || !limits || price > limits.maxPriceMicrostx) {
          return { quote }
        }
        narrowed = true
        token = await tokens!.renew(token.token, creditOffer!, limits)
        continue
      }
      creditInFlight++
      const answer = await sendCredit(url, id, {
        ...headers,
        [CREDIT_TOKEN_HEADER]: token.token,
      }).catch((error: unknown) => {
        lostCreditCalls.set(id, hold)
        creditCallEnded()
        throw error
      })
      const { response, text } = answer
      const body = parseJson(text)
      const code = errorCode(body)
      if (response.status === 200) {
        // A price the answer does not give is counted as the most the token allowed.
        const price =
          (isObject(body) ? microstxOf(body.price) : null) ?? hold.fromTopUps + hold.fromBudget
        endHold(hold, price)
        creditCallEnded()
        creditLedger.calls++
        creditLedger.spentMicrostx += price
        creditLedger.balanceMicrostx =
          readCreditBalance(response.headers.get('credit-balance')) ?? creditLedger.balanceMicrostx
        return { purchase: purchase<T>(body, null, price, 'credit') }
      }
      endHold(hold, 0n)
      creditCallEnded()
      if (code && CREDIT_TOKEN_SPENT.has(code) && !renewed) {
        renewed = true
        const limits = tokenLimits()
        if (!limits) return { quote: await ask(url) }
        token = await tokens!.renew(token.token, creditOffer!, limits)
        continue
      }
      if (response.status !== 402) throw refusal(response.status, text, true)
      creditOffer = offerOf(answer) ?? creditOffer
      if (code === 'insufficient_credit' && !toppedUp) {
        toppedUp = true
        // A concurrent call's top-up landed meanwhile: try the balance again before buying more.
        if (creditLedger.topUps !== topUpsBefore || (await topUpFor(answer))) continue
      }
      return { quote: answer }
    }
  }

  /**
   * A credit call's answer, sent again with the same headers after a lost answer, a 429, or a
   * debit the service could not confirm (`credit_call_outcome_unknown`: the retry answers the
   * stored bytes if it was debited).
   */
  async function sendCredit(
    url: string,
    id: string,
    headers: Record<string, string>
  ): Promise<Answer> {
    let lost = 0
    let busy = 0
    const backOff = () => sleep(Math.min(250 * 2 ** (lost - 1), maxRetryAfterMs))
    for (;;) {
      const answer = await settled(request(url, { headers }))
      if (!answer.ok) {
        if (lost++ >= LOST_ANSWER_RETRIES) throw new UnreachableError(url, answer.error, null, id)
        await backOff()
        continue
      }
      const { response, text } = answer.value
      if (response.status === 429 && busy++ < BUSY_RETRIES) {
        await sleep(retryAfterMs(response, 1))
        continue
      }
      const code = response.status >= 500 ? errorCode(parseJson(text)) : null
      const unconfirmed = code === CREDIT_CALL_OUTCOME_UNKNOWN
      // Its answer, but a 5xx without the service's code (a proxy, a crash) or an unconfirmed debit.
      if (response.status < 500 || (code !== null && !unconfirmed)) return answer.value
      if (lost++ >= LOST_ANSWER_RETRIES) {
        // Still unconfirmed: as a lost answer, its price stays held and its identifier is named.
        if (unconfirmed) throw new UnreachableError(url, new Error(code), null, id)
        return answer.value
      }
      await (unconfirmed ? sleep(retryAfterMs(response, 1)) : backOff())
    }
  }

  /**
   * Tops up enough for the 402's price, within what is left of the budget and the service's
   * bounds; false when that is not possible (pay on chain instead). Concurrent callers share one.
   */
  function topUpFor(quote: Answer): Promise<boolean> {
    toppingUp ??= (async () => {
      const price = priceOf(quote)
      const offer = creditOffer!
      // What the calls in flight hold goes back to the budget (they wait for this top-up).
      await creditCallsEnded()
      let amount = credit!.topUpMicrostx
      if (offer.topUpMaximumMicrostx !== null && amount > offer.topUpMaximumMicrostx) {
        amount = offer.topUpMaximumMicrostx
      }
      if (amount > left() && ledger.unknown.size > 0) await settle()
      if (amount > left()) amount = left()
      const floor = offer.topUpMinimumMicrostx ?? 1n
      if (price === null || amount < price || amount < floor) return false
      await topUp(amount)
      return true
    })().finally(() => {
      toppingUp = null
    })
    return toppingUp
  }

  /** Buys `amount` µSTX of credit with an ordinary x402 payment (POST /credit/top-ups). */
  async function topUp(amount: bigint) {
    const url = `${baseUrl}/credit/top-ups?amount_stx=${formatStx(amount)}`
    const quote = await ask(url, 'POST')
    if (quote.response.status !== 402) throw refusal(quote.response.status, quote.text, true)
    const { body } = await payOnChain(url, 'POST', quote, { kind: 'top_up', amount })
    const balance = isObject(body) && isObject(body.credit) ? body.credit.balance_microstx : null
    creditLedger.balanceMicrostx = microstxOf(balance) ?? creditLedger.balanceMicrostx
  }

  /** The quote's price on this client's network, or null when it has none this client pays. */
  function priceOf(quote: Answer): bigint | null {
    try {
      return BigInt(requirementOf(quote).accepted.amount)
    } catch {
      return null
    }
  }

  function requirementOf(quote: Answer): {
    required: PaymentRequired
    accepted: PaymentRequirement
  } {
    const required = readPaymentRequired(quote.text, quote.response.headers.get('payment-required'))
    return { required, accepted: chooseRequirement(required, networkId) }
  }

  function offerOf(quote: Answer): CreditOffer | null {
    try {
      const offer = readCreditOffer(requirementOf(quote).required)
      return offer?.chainId === networkId ? offer : null
    } catch {
      return null
    }
  }

  /**
   * Pays the 402 `quote` of `url` with one STX transfer and returns the paid answer: a call's
   * price within the per-call cap, a top-up of exactly the amount asked; both within the budget.
   */
  async function payOnChain(
    url: string,
    method: 'GET' | 'POST',
    quote: Answer,
    paying: Paying
  ): Promise<{ body: unknown; txid: string; price: bigint }> {
    const { required, accepted } = requirementOf(quote)
    if (allowedPayTo && !allowedPayTo.has(accepted.payTo)) {
      throw new PayToNotAllowedError(accepted.payTo)
    }
    const price = BigInt(accepted.amount)
    if (paying.kind === 'top_up' && price !== paying.amount) {
      throw new MalformedPaymentRequiredError(
        `the top-up's 402 asks ${price} µSTX, not the ${paying.amount} µSTX asked for`
      )
    }
    // Over the budget with payments of unknown outcome: what the chain says of them may free it.
    const withinCap = paying.kind === 'top_up' || price <= perCallCap
    if (withinCap && price > left() && ledger.unknown.size > 0) await settle()
    reserve(price, paying)

    let release: (() => void) | undefined
    let nonceOutcome: 'used' | 'unused' | 'unknown' = 'unused'
    let moneyOutcome: 'paid' | 'released' | 'unknown' = 'released'
    let nonce: bigint | undefined
    let txid: string | undefined
    try {
      release = await payer.slot()
      const signed = await payer.inOrder(async (allocated) => {
        const hex = await signer.signTransfer({
          recipient: accepted.payTo,
          amount: price,
          nonce: allocated,
        })
        const header = paymentSignature(required, accepted, hex, paymentIdentifier())
        const headers = { ...agentHeaders, 'payment-signature': header }
        // Sent before the next nonce is handed out: the service takes nonces in order.
        const first = settled(request(url, { method, headers }))
        return { nonce: allocated, txid: `0x${deserializeTransaction(hex).txid()}`, headers, first }
      })
      nonce = signed.nonce
      txid = signed.txid
      const send = () => settled(request(url, { method, headers: signed.headers }))
      let attempt: Promise<Settled<Answer>> = signed.first
      let lost = 0
      let busy = 0
      let nonceWaits = 0
      for (;;) {
        const answer = await attempt
        if (!answer.ok) {
          // Lost answer: the service may have taken the payment; the same header is safe to send again.
          nonceOutcome = 'unknown'
          moneyOutcome = 'unknown'
          if (lost++ >= LOST_ANSWER_RETRIES) throw new UnreachableError(url, answer.error, txid)
          await sleep(Math.min(250 * 2 ** (lost - 1), maxRetryAfterMs))
          attempt = send()
          continue
        }
        const { response, text } = answer.value
        const body = parseJson(text)
        const code = errorCode(body)
        if (response.status === 200) {
          nonceOutcome = 'used'
          moneyOutcome = 'paid'
          return { body, txid, price }
        }
        if (response.status === 202) {
          nonceOutcome = 'used'
          moneyOutcome = 'paid'
          const wait = retryAfterMs(response, 5)
          const paid = await collect(body, txid, wait, paying.kind).catch((error) => {
            // Failed on chain: the transfer moved nothing (its nonce is spent all the same).
            if (error instanceof RefusedError && error.serverCode === 'payment_failed') {
              moneyOutcome = 'released'
            }
            throw error
          })
          return { body: paid, txid, price }
        }
        if (response.status === 429 && busy++ < BUSY_RETRIES) {
          await sleep(retryAfterMs(response, 5))
          attempt = send()
          continue
        }
        if (response.status === 402 && code === 'bad_nonce' && nonce !== undefined) {
          // A lower nonce of ours has not reached the service yet (or was refused and awaits
          // reuse): the same transfer passes once it has.
          if (payer.waitsOnLowerNonce(nonce) && nonceWaits++ < NONCE_RETRIES) {
            await sleep(Math.min(50 * nonceWaits, 1000))
            attempt = send()
            continue
          }
          if (!payer.waitsOnLowerNonce(nonce)) {
            // Used already (another wallet of this key): read the account again.
            nonceOutcome = 'unknown'
            moneyOutcome = 'released'
            throw refusal(response.status, text, true, txid)
          }
        }
        if (response.status === 402 && code && TRANSFER_MAY_BE_ON_CHAIN.has(code)) {
          nonceOutcome = 'used'
          moneyOutcome = code === 'payment_failed' ? 'released' : 'paid'
          throw refusal(response.status, text, false, txid)
        }
        if (response.status >= 500 && !code) {
          // Not an answer of the service's paywall (a proxy, a crash): retry as a lost answer.
          nonceOutcome = 'unknown'
          moneyOutcome = 'unknown'
          if (lost++ >= LOST_ANSWER_RETRIES) throw refusal(response.status, text, false, txid)
          await sleep(Math.min(250 * 2 ** (lost - 1), maxRetryAfterMs))
          attempt = send()
          continue
        }
        if (response.status < 500 || code === 'source_unavailable') {
          // A refusal before broadcast (a 4xx check, a source that could not serve): nothing taken.
          nonceOutcome = 'unused'
          moneyOutcome = 'released'
          throw refusal(response.status, text, true, txid)
        }
        // A failure of the service or the chain node once the payment was taken (500
        // internal_error, 503 chain_node_unavailable, …): the transfer may have been broadcast,
        // so its price stays reserved and its nonce is read again, never handed out twice.
        nonceOutcome = 'unknown'
        moneyOutcome = 'unknown'
        throw refusal(response.status, text, false, txid)
      }
    } finally {
      if (nonce !== undefined) payer.done(nonce, nonceOutcome)
      account(price, nonce === undefined ? 'released' : moneyOutcome, paying.kind)
      if (nonce !== undefined && txid !== undefined && moneyOutcome === 'unknown') {
        ledger.unknown.set(txid, { priceMicrostx: price, nonce, kind: paying.kind })
      } else if (txid !== undefined && moneyOutcome === 'paid' && ledger.unknown.has(txid)) {
        // Signed again at the same nonce, the transfer whose outcome was unknown is byte for byte
        // the one just paid: count it once.
        account(ledger.unknown.get(txid)!.priceMicrostx, 'released')
        ledger.unknown.delete(txid)
      }
      release?.()
    }
  }

  /** Collects a payment still settling at its status URL with its receipt, honouring Retry-After. */
  async function collect(body: unknown, txid: string, firstWaitMs: number, paying: Paying['kind']) {
    const receipt = isObject(body) && isObject(body.receipt) ? body.receipt : {}
    const named = typeof receipt.status_url === 'string' ? receipt.status_url : undefined
    // The receipt token goes only to the service itself, whatever URL an answer names.
    const statusUrl =
      named && new URL(named, `${baseUrl}/`).origin === new URL(baseUrl).origin
        ? named
        : `/payments/${txid}`
    const token = typeof receipt.token === 'string' ? receipt.token : undefined
    const pending = new PendingError(txid, { txid, token, statusUrl }, paying)
    const url = new URL(statusUrl, `${baseUrl}/`).toString()
    const deadline = Date.now() + maxPendingMs
    let waitMs = firstWaitMs
    for (;;) {
      if (Date.now() + waitMs > deadline) throw pending
      await sleep(waitMs)
      const headers: Record<string, string> = token ? { 'x-payment-receipt': token } : {}
      const answer = await settled(request(url, { headers }))
      if (!answer.ok) continue
      const { response, text } = answer.value
      if (response.status === 200) return parseJson(text)
      if (response.status !== 202) throw refusal(response.status, text, false, txid)
      waitMs = retryAfterMs(response, 5)
    }
  }

  return {
    /** Live feeds from the discovery API, filtered; at most `limit` (default 200). */
    feeds(filter: FeedFilter = {}): Promise<Feed[]> {
      return discoverFeeds(baseUrl, networkId, filter, async (url) => {
        const answer = await ask(url)
        if (answer.response.status !== 200) throw refusal(answer.response.status, answer.text, true)
        return parseJson(answer.text)
      })
    },
    get,
    /**
     * What one call of `feed` costs and the ways to pay it (its 402: the on-chain requirement,
     * the credit offer); nothing is paid.
     */
    async quote(
      feed: string,
      params: Record<string, string | number | boolean> = {}
    ): Promise<Quote> {
      const answer = await ask(feedUrl(baseUrl, feed, params))
      if (answer.response.status !== 402) throw refusal(answer.response.status, answer.text, true)
      const { accepted } = requirementOf(answer)
      return {
        priceMicrostx: BigInt(accepted.amount),
        payTo: accepted.payTo,
        credit: offerOf(answer),
      }
    },
    /** What this client spent, has reserved and has left; `unknown` lists the payments of unknown outcome. */
    spent,
    /**
     * Looks each unknown payment up on the Stacks API: mined with success → spent; aborted,
     * dropped, or never seen while a later transfer took its nonce → back to the budget; still
     * pending (or the API unreachable) → stays reserved. `get()` does it by itself when the
     * budget would otherwise refuse a call.
     */
    settle,
    /** Whether `get()` prefers prepaid credit (the `credit` option). */
    prefersCredit: credit !== undefined,
  }
}

/** The credit option's limits, checked: what a token signs and each top-up. */
function creditSettings(options: CreditOptions, perCallCap: bigint, signer: Signer) {
  if (!signer.signMessage) {
    throw new AgentError('invalid_options', 'paying from credit needs a signer with signMessage')
  }
  const topUpMicrostx = BigInt(options.topUpMicrostx)
  const spendCapMicrostx = BigInt(options.spendCapMicrostx ?? topUpMicrostx)
  const asked = options.maxPricePerCallMicrostx
  const maxPriceMicrostx = asked === undefined ? min(perCallCap, spendCapMicrostx) : BigInt(asked)
  if (topUpMicrostx <= 0n || maxPriceMicrostx <= 0n) {
    throw new AgentError(
      'invalid_options',
      'credit.topUpMicrostx and the price limit must be above 0'
    )
  }
  if (maxPriceMicrostx > perCallCap || maxPriceMicrostx > spendCapMicrostx) {
    throw new AgentError(
      'invalid_options',
      'credit.maxPricePerCallMicrostx may not be above maxPerCallMicrostx or credit.spendCapMicrostx'
    )
  }
  return { topUpMicrostx, spendCapMicrostx, maxPriceMicrostx }
}

function min(a: bigint, b: bigint) {
  return a < b ? a : b
}

function microstxOf(value: unknown): bigint | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^\d{1,19}$/.test(value)) return BigInt(value)
  return null
}

/** `allowedPayTo` from `TOLLBOOTH_PAY_TO`, comma-separated addresses (unset or blank: any). */
export function allowedPayToFromEnv(env: Record<string, string | undefined>) {
  return commaSeparated(env.TOLLBOOTH_PAY_TO)
}

/** `creditHosts` from `TOLLBOOTH_CREDIT_HOSTS`, comma-separated `host[:port]` (unset or blank: none). */
export function creditHostsFromEnv(env: Record<string, string | undefined>) {
  return commaSeparated(env.TOLLBOOTH_CREDIT_HOSTS)
}

function commaSeparated(value: string | undefined) {
  const items = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
  return items.length > 0 ? items : undefined
}

/** A built-in id (`whale-alerts`), a provider's `handle/slug`, or an absolute URL. */
export function feedUrl(
  baseUrl: string,
  feed: string,
  params: Record<string, string | number | boolean>
): string {
  const url = /^https?:\/\//i.test(feed)
    ? new URL(feed)
    : new URL(
        feed.includes('/')
          ? `${baseUrl}/feeds/p/${feed.split('/').map(encodeURIComponent).join('/')}`
          : `${baseUrl}/feeds/${encodeURIComponent(feed)}`
      )
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value))
  return url.toString()
}

function purchase<T>(
  body: unknown,
  txid: string | null,
  price: bigint,
  paidWith: Purchase['paidWith']
): Purchase<T> {
  if (!isObject(body) || body.data === undefined || body.data === null) {
    throw new PaidWithoutDataError(txid, body)
  }
  return { data: body.data as T, body, txid, priceMicrostx: price, paidWith }
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown }

function settled<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error })
  )
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

const PAYMENT_IDENTIFIER = /^[A-Za-z0-9_-]{16,128}$/

/** x402's payment-identifier: 16–128 letters, digits, `-` or `_`; the client's secret. */
function paymentIdentifier() {
  return `pay_${randomBytes(16).toString('hex')}`
}

/**
 * A transfer's outcome on the Stacks API (`/extended/v1/tx/<txid>`): `success`, `failed`
 * (aborted or dropped: it moved nothing), `pending`, `not_found`, or null when unknown.
 */
async function readTransferStatus(
  fetchImpl: typeof globalThis.fetch,
  stacksApiUrl: string,
  txid: string
): Promise<'success' | 'failed' | 'pending' | 'not_found' | null> {
  const answer = await settled(
    fetchImpl(`${stacksApiUrl}/extended/v1/tx/${txid}`, { signal: AbortSignal.timeout(30_000) })
  )
  if (!answer.ok) return null
  const { status } = answer.value
  const body = parseJson(await answer.value.text().catch(() => ''))
  if (status === 404) return 'not_found'
  const txStatus = status === 200 && isObject(body) ? body.tx_status : undefined
  if (txStatus === 'success' || txStatus === 'pending') return txStatus
  if (typeof txStatus === 'string' && /^(abort_|dropped_)/.test(txStatus)) return 'failed'
  return null
}

/** The account's nonces from the Stacks API (`/extended/v1/address/<address>/nonces`). */
async function readNonces(
  fetchImpl: typeof globalThis.fetch,
  stacksApiUrl: string,
  address: string
): Promise<AccountNonces> {
  const url = `${stacksApiUrl}/extended/v1/address/${address}/nonces`
  const response = await fetchImpl(url, { signal: AbortSignal.timeout(30_000) }).catch((error) => {
    throw new UnreachableError(url, error)
  })
  const body = parseJson(await response.text())
  const next = isObject(body) ? body.possible_next_nonce : undefined
  if (response.status !== 200 || !isObject(body) || !isNonce(next)) {
    throw new UnreachableError(url, new Error(`no possible_next_nonce (HTTP ${response.status})`))
  }
  const missing = Array.isArray(body.detected_missing_nonces) ? body.detected_missing_nonces : []
  return {
    next: BigInt(next),
    lastExecuted: isNonce(body.last_executed_tx_nonce) ? BigInt(body.last_executed_tx_nonce) : null,
    missing: missing.filter(isNonce).map(BigInt),
  }
}

function isNonce(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

/** A signer from a private key; the fee is the option's or the Stacks API's estimate. */
function keySigner(
  options: ClientOptions,
  stacksApiUrl: string,
  fetchImpl: typeof globalThis.fetch
): Signer {
  const { privateKey } = options
  if (!privateKey) throw new AgentError('invalid_options', 'give a privateKey or a signer')
  const network = {
    ...networkFrom(options.network),
    client: { baseUrl: stacksApiUrl, fetch: fetchImpl },
  }
  return {
    address: getAddressFromPrivateKey(privateKey, network),
    async signTransfer({ recipient, amount, nonce }) {
      const transaction = await makeSTXTokenTransfer({
        recipient,
        amount,
        nonce,
        senderKey: privateKey,
        network,
        ...(options.feeMicrostx === undefined ? {} : { fee: BigInt(options.feeMicrostx) }),
      }).catch((error) => {
        throw error instanceof AgentError ? error : new UnreachableError(stacksApiUrl, error)
      })
      return transaction.serialize()
    },
    async signMessage(message) {
      const messageHash = Buffer.from(hashMessage(message)).toString('hex')
      return signMessageHashRsv({ messageHash, privateKey })
    },
  }
}
