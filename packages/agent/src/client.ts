import { randomBytes } from 'node:crypto'
import { networkFrom } from '@stacks/network'
import {
  deserializeTransaction,
  getAddressFromPrivateKey,
  makeSTXTokenTransfer,
} from '@stacks/transactions'
import {
  AgentError,
  type FieldError,
  OverCapError,
  PaidWithoutDataError,
  PayToNotAllowedError,
  PendingError,
  RefusedError,
  UnreachableError,
} from './errors.ts'
import { discoverFeeds, type Feed, type FeedFilter } from './discovery.ts'
import { Payer, type AccountNonces } from './payer.ts'
import {
  NETWORK_IDS,
  type NetworkName,
  chooseRequirement,
  isObject,
  parseJson,
  paymentSignature,
  readPaymentRequired,
} from './x402.ts'

/** Signs STX transfers for one address (a wallet, a KMS, …). */
export interface Signer {
  address: string
  /** The hex of a signed, not broadcast, STX transfer of `amount` µSTX with exactly this nonce. */
  signTransfer(transfer: { recipient: string; amount: bigint; nonce: bigint }): Promise<string>
}

export interface ClientOptions {
  /** The service, e.g. https://tollbooth.example */
  baseUrl: string
  privateKey?: string
  signer?: Signer
  network: NetworkName
  /** No single call may cost more (µSTX). */
  maxPerCallMicrostx: bigint | number
  /** All calls of this client together may cost no more (µSTX). */
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
}

export interface Purchase<T = unknown> {
  data: T
  /** The whole paid answer: `{data, price, price_stx, data_source, last_updated, stale?}`. */
  body: Record<string, unknown>
  /** `0x…` */
  txid: string
  priceMicrostx: bigint
}

export interface Spending {
  spentMicrostx: bigint
  /** Calls in flight and the `unknown` payments. */
  reservedMicrostx: bigint
  remainingMicrostx: bigint
  calls: number
  /** Payments sent whose outcome is unknown: reserved until `settle()` finds them on the chain. */
  unknown: UnknownPayment[]
}

export interface UnknownPayment {
  /** `0x…` */
  txid: string
  priceMicrostx: bigint
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

export type Client = ReturnType<typeof createClient>

/**
 * A buyer of Tollbooth feeds: `feeds()` finds them, `get()` pays for one call
 * within the per-call cap and the budget, `spent()` tells what it cost.
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
  const ledger = {
    spent: 0n,
    reserved: 0n,
    calls: 0,
    unknown: new Map<string, { priceMicrostx: bigint; nonce: bigint }>(),
  }
  let settling: Promise<void> | null = null
  const payer = new Payer(
    () => readNonces(fetchImpl, stacksApiUrl, signer.address),
    options.maxInFlight ?? 5
  )

  async function request(url: string, headers: Record<string, string> = {}) {
    const signal = AbortSignal.timeout(requestTimeoutMs)
    // A signed payment or a receipt token never follows a redirect to whoever it names.
    const secret = 'payment-signature' in headers || 'x-payment-receipt' in headers
    const response = await fetchImpl(url, {
      headers,
      signal,
      redirect: secret ? 'error' : 'follow',
    })
    return { response, text: await response.text() }
  }

  function retryAfterMs(response: Response, fallbackSeconds: number) {
    const seconds = Number(response.headers.get('retry-after') ?? fallbackSeconds)
    const ms = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : fallbackSeconds * 1000
    return Math.min(ms, maxRetryAfterMs)
  }

  function left() {
    return budget - ledger.spent - ledger.reserved
  }

  function reserve(price: bigint) {
    if (price > perCallCap) throw new OverCapError('per_call', price, perCallCap)
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
    for (const [index, [txid, { priceMicrostx, nonce }]] of payments.entries()) {
      const status = statuses[index]
      const gone = status === 'not_found' && lastExecuted !== null && lastExecuted >= nonce
      if (status !== 'success' && status !== 'failed' && !gone) continue
      ledger.unknown.delete(txid)
      account(priceMicrostx, status === 'success' ? 'paid' : 'released')
    }
  }

  /** The reserved price moves to spent (`paid`), back to the budget (`released`) or stays reserved. */
  function account(price: bigint, outcome: 'paid' | 'released' | 'unknown') {
    if (outcome === 'unknown') return
    ledger.reserved -= price
    if (outcome === 'paid') {
      ledger.spent += price
      ledger.calls++
    }
  }

  async function get<T = unknown>(
    feed: string,
    params: Record<string, string | number | boolean> = {}
  ): Promise<Purchase<T>> {
    const url = feedUrl(baseUrl, feed, params)
    const agentHeaders: Record<string, string> = options.agentName
      ? { 'x-agent-name': options.agentName }
      : {}
    const quote = await request(url, agentHeaders).catch((error) => {
      throw new UnreachableError(url, error)
    })
    if (quote.response.status !== 402) throw refusal(quote.response.status, quote.text, true)
    const required = readPaymentRequired(quote.text, quote.response.headers.get('payment-required'))
    const accepted = chooseRequirement(required, networkId)
    if (allowedPayTo && !allowedPayTo.has(accepted.payTo)) {
      throw new PayToNotAllowedError(accepted.payTo)
    }
    const price = BigInt(accepted.amount)
    // Over the budget with payments of unknown outcome: what the chain says of them may free it.
    if (price <= perCallCap && price > left() && ledger.unknown.size > 0) await settle()
    reserve(price)

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
        const first = settled(request(url, headers))
        return { nonce: allocated, txid: `0x${deserializeTransaction(hex).txid()}`, headers, first }
      })
      nonce = signed.nonce
      txid = signed.txid
      const { headers } = signed
      let attempt: Promise<Settled<Awaited<ReturnType<typeof request>>>> = signed.first
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
          attempt = settled(request(url, headers))
          continue
        }
        const { response, text } = answer.value
        const body = parseJson(text)
        const code = errorCode(body)
        if (response.status === 200) {
          nonceOutcome = 'used'
          moneyOutcome = 'paid'
          return purchase<T>(body, txid, price)
        }
        if (response.status === 202) {
          nonceOutcome = 'used'
          moneyOutcome = 'paid'
          const paid = await collect(body, txid, retryAfterMs(response, 5)).catch((error) => {
            // Failed on chain: the transfer moved nothing (its nonce is spent all the same).
            if (error instanceof RefusedError && error.serverCode === 'payment_failed') {
              moneyOutcome = 'released'
            }
            throw error
          })
          return purchase<T>(paid, txid, price)
        }
        if (response.status === 429 && busy++ < BUSY_RETRIES) {
          await sleep(retryAfterMs(response, 5))
          attempt = settled(request(url, headers))
          continue
        }
        if (response.status === 402 && code === 'bad_nonce' && nonce !== undefined) {
          // A lower nonce of ours has not reached the service yet (or was refused and awaits
          // reuse): the same transfer passes once it has.
          if (payer.waitsOnLowerNonce(nonce) && nonceWaits++ < NONCE_RETRIES) {
            await sleep(Math.min(50 * nonceWaits, 1000))
            attempt = settled(request(url, headers))
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
          attempt = settled(request(url, headers))
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
      account(price, nonce === undefined ? 'released' : moneyOutcome)
      if (nonce !== undefined && txid !== undefined && moneyOutcome === 'unknown') {
        ledger.unknown.set(txid, { priceMicrostx: price, nonce })
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
  async function collect(body: unknown, txid: string, firstWaitMs: number) {
    const receipt = isObject(body) && isObject(body.receipt) ? body.receipt : {}
    const named = typeof receipt.status_url === 'string' ? receipt.status_url : undefined
    // The receipt token goes only to the service itself, whatever URL an answer names.
    const statusUrl =
      named && new URL(named, `${baseUrl}/`).origin === new URL(baseUrl).origin
        ? named
        : `/payments/${txid}`
    const token = typeof receipt.token === 'string' ? receipt.token : undefined
    const pending = new PendingError(txid, { txid, token, statusUrl })
    const url = new URL(statusUrl, `${baseUrl}/`).toString()
    const deadline = Date.now() + maxPendingMs
    let waitMs = firstWaitMs
    for (;;) {
      if (Date.now() + waitMs > deadline) throw pending
      await sleep(waitMs)
      const answer = await settled(request(url, token ? { 'x-payment-receipt': token } : {}))
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
        const answer = await request(url).catch((error) => {
          throw new UnreachableError(url, error)
        })
        if (answer.response.status !== 200) throw refusal(answer.response.status, answer.text, true)
        return parseJson(answer.text)
      })
    },
    get,
    /** What this client spent, has reserved and has left; `unknown` lists the payments of unknown outcome. */
    spent,
    /**
     * Looks each unknown payment up on the Stacks API: mined with success → spent; aborted,
     * dropped, or never seen while a later transfer took its nonce → back to the budget; still
     * pending (or the API unreachable) → stays reserved. `get()` does it by itself when the
     * budget would otherwise refuse a call.
     */
    settle,
  }
}

/** `allowedPayTo` from `TOLLBOOTH_PAY_TO`, comma-separated addresses (unset or blank: any). */
export function allowedPayToFromEnv(env: Record<string, string | undefined>) {
  const addresses = (env.TOLLBOOTH_PAY_TO ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean)
  return addresses.length > 0 ? addresses : undefined
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

function purchase<T>(body: unknown, txid: string, price: bigint): Purchase<T> {
  if (!isObject(body) || body.data === undefined || body.data === null) {
    throw new PaidWithoutDataError(txid, body)
  }
  return { data: body.data as T, body, txid, priceMicrostx: price }
}

function errorCode(body: unknown): string | null {
  if (!isObject(body)) return null
  if (typeof body.error === 'string') return body.error
  if (isObject(body.error) && typeof body.error.code === 'string') return body.error.code
  return null
}

function refusal(status: number, text: string, nothingPaid: boolean, txid: string | null = null) {
  const body = parseJson(text)
  const code = errorCode(body) ?? `http_${status}`
  const error = isObject(body) && isObject(body.error) ? body.error : {}
  const message = typeof error.message === 'string' ? error.message : text.slice(0, 200)
  return new RefusedError(status, code, message, nothingPaid, { fields: fieldErrors(error), txid })
}

/** The well-formed entries of a service error's `fields` (`[{field, rule, message}]`). */
function fieldErrors(error: Record<string, unknown>): FieldError[] {
  if (!Array.isArray(error.fields)) return []
  return error.fields.filter(isObject).flatMap((entry) =>
    typeof entry.field === 'string' && typeof entry.message === 'string'
      ? [
          {
            field: entry.field,
            message: entry.message,
            ...(typeof entry.rule === 'string' ? { rule: entry.rule } : {}),
          },
        ]
      : []
  )
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
  }
}
