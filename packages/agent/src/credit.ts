import { AgentError } from './errors.ts'
import { refusal } from './refusal.ts'
import { formatStx, MICROSTX_PER_STX } from './stx.ts'
import { isObject, parseJson, type PaymentRequired } from './x402.ts'

/** The request header that pays a call from credit. */
export const CREDIT_TOKEN_HEADER = 'credit-token'

/** Prepaid credit as a client pays with it (`createClient({ credit })`). */
export interface CreditOptions {
  /**
   * Each top-up (µSTX): an ordinary x402 payment, made when the balance does not cover a call,
   * counted against `budgetMicrostx` (never more than is left of it).
   */
  topUpMicrostx: bigint | number
  /**
   * What one credit token may spend (default: one top-up): a stolen token buys no more. Each token
   * is signed for no more than the client may still spend (its unspent top-ups and what is left
   * of the budget), whatever this says.
   */
  spendCapMicrostx?: bigint | number
  /** The dearest call a token pays (default and at most: `maxPerCallMicrostx`). */
  maxPricePerCallMicrostx?: bigint | number
}

/** What a 402's `credit` extension offers: credit as a second way to pay. */
export interface CreditOffer {
  /** CAIP-2, e.g. `stacks:2147483648`. */
  chainId: string
  topUpMinimumMicrostx: bigint | null
  topUpMaximumMicrostx: bigint | null
  tokenMaxLifetimeSeconds: number | null
}

/** The 402's `extensions.credit`, or null when the service offers no credit. */
export function readCreditOffer(required: PaymentRequired): CreditOffer | null {
  const credit = isObject(required.extensions) ? required.extensions.credit : undefined
  const info = isObject(credit) && isObject(credit.info) ? credit.info : null
  if (!info || info.header !== CREDIT_TOKEN_HEADER || typeof info.chainId !== 'string') return null
  return {
    chainId: info.chainId,
    topUpMinimumMicrostx: microstx(info.topUpMinimum),
    topUpMaximumMicrostx: microstx(info.topUpMaximum),
    tokenMaxLifetimeSeconds:
      typeof info.tokenMaxLifetimeSeconds === 'number' ? info.tokenMaxLifetimeSeconds : null,
  }
}

/** A credit call's `credit-balance: balance=<µSTX>; token_remaining=<µSTX>` header. */
export function readCreditBalance(header: string | null): bigint | null {
  const match = header === null ? null : /(?:^|;)\s*balance=(\d+)\s*(?:;|$)/.exec(header)
  return match ? BigInt(match[1]) : null
}

export interface CreditLimits {
  spendCapMicrostx: bigint
  maxPriceMicrostx: bigint
}

/**
 * Checks the Sign-In With Stacks message the service issued before the key signs it: a credit
 * message (not a sign-in to anything else) for this address, on this chain, for one of the
 * service's own host names, whose statement names exactly the limits asked for. The hosts are the
 * client's `baseUrl` and those its operator named, never ones a 402 names: a service relaying
 * another Tollbooth's challenge would otherwise get a token for the wallet's credit there.
 */
export function checkCreditMessage(
  message: string,
  expected: CreditLimits & { address: string; chainId: string; hosts: string[] }
): void {
  const lines = message.split('\n')
  const domain = /^(\S+) wants you to sign in with your Stacks account:$/.exec(lines[0] ?? '')?.[1]
  const uri = lines.find((line) => line.startsWith('URI: '))?.slice(5)
  const chain = lines.find((line) => line.startsWith('Chain ID: '))?.slice(10)
  const limits = statementLimits(lines[3])
  const problem = !domain
    ? 'it is not a Sign-In With Stacks message'
    : !expected.hosts.includes(domain)
      ? `it is for ${domain}, not the service`
      : !uri || !URL.canParse(uri) || new URL(uri).host !== domain
        ? 'its URI is not on its domain'
        : lines[1] !== expected.address
          ? 'it names another address'
          : `stacks:${chain}` !== expected.chainId
            ? 'it is for another chain'
            : limits?.spendCapMicrostx !== expected.spendCapMicrostx ||
                limits.maxPriceMicrostx !== expected.maxPriceMicrostx
              ? 'its statement does not name the limits asked for'
              : null
  if (problem) {
    throw new AgentError('credit_message_refused', `not signing the credit message: ${problem}`)
  }
}

/** The statement a credit message names its limits in. */
export function creditStatement({ spendCapMicrostx, maxPriceMicrostx }: CreditLimits): string {
  return `Spend at most ${formatStx(spendCapMicrostx)} STX of my Tollbooth credit, at most ${formatStx(maxPriceMicrostx)} STX per call.`
}

const STATEMENT =
  /^Spend at most (\d+(?:\.\d{1,6})?) STX of my Tollbooth credit, at most (\d+(?:\.\d{1,6})?) STX per call\.$/

function statementLimits(line: string | undefined): CreditLimits | null {
  const match = line === undefined ? null : STATEMENT.exec(line)
  if (!match) return null
  return { spendCapMicrostx: stxToMicrostx(match[1]), maxPriceMicrostx: stxToMicrostx(match[2]) }
}

function stxToMicrostx(stx: string): bigint {
  const [whole, fraction = ''] = stx.split('.')
  return BigInt(whole) * MICROSTX_PER_STX + BigInt(fraction.padEnd(6, '0'))
}

function microstx(value: unknown): bigint | null {
  return typeof value === 'string' && /^\d{1,19}$/.test(value) ? BigInt(value) : null
}

/** What the token exchange needs of the client. */
export interface CreditTokenSource {
  baseUrl: string
  /** The host names whose credit messages the key signs (`checkCreditMessage`). */
  hosts: string[]
  address: string
  signMessage: (message: string) => Promise<string>
  /** POSTs a JSON body; resolves to the status and text of the answer. */
  post: (url: string, body: unknown) => Promise<{ status: number; text: string }>
}

/** A token is dropped this long before the expiry the service gave it. */
const EXPIRY_MARGIN_MS = 30_000

/** A credit token and the limits it was signed for. */
export interface CreditToken extends CreditLimits {
  token: string
  expiresAt: number
}

/**
 * The client's credit token: obtained once (POST /credit/nonce, the key signs the message,
 * POST /credit/tokens) and shared by concurrent calls; renewed when the service no longer takes
 * it (expired, or its signed cap spent) or shortly before it expires.
 */
export class CreditTokens {
  #source: CreditTokenSource
  #current: CreditToken | null = null
  #pending: Promise<CreditToken> | null = null

  constructor(source: CreditTokenSource) {
    this.#source = source
  }

  /** The token the client holds, if it is not about to expire; null: none yet. */
  held(): CreditToken | null {
    const current = this.#current
    return current && Date.now() < current.expiresAt - EXPIRY_MARGIN_MS ? current : null
  }

  /**
   * A token to send; `offer` says for which chain it is signed, `limits` what a new one signs
   * (concurrent callers share the exchange of the first).
   */
  token(offer: CreditOffer, limits: CreditLimits): Promise<CreditToken> {
    const held = this.held()
    if (held) return Promise.resolve(held)
    this.#pending ??= this.#exchange(offer, limits)
      .then((current) => (this.#current = current))
      .finally(() => {
        this.#pending = null
      })
    return this.#pending
  }

  /** A new token in place of `stale`, which the service refused. */
  renew(stale: string, offer: CreditOffer, limits: CreditLimits): Promise<CreditToken> {
    if (this.#current?.token === stale) this.#current = null
    return this.token(offer, limits)
  }

  async #exchange(offer: CreditOffer, limits: CreditLimits): Promise<CreditToken> {
    const { baseUrl, address } = this.#source
    const { spendCapMicrostx, maxPriceMicrostx } = limits
    const nonceUrl = `${baseUrl}/credit/nonce`
    const issued = await this.#source.post(nonceUrl, {
      address,
      spend_cap_stx: formatStx(spendCapMicrostx),
      max_price_stx: formatStx(maxPriceMicrostx),
    })
    const challenge = parseJson(issued.text)
    if (issued.status !== 200) throw refusal(issued.status, issued.text, true)
    const message = isObject(challenge) ? challenge.message : undefined
    if (typeof message !== 'string') {
      throw new AgentError('credit_message_refused', `${nonceUrl} answered no message to sign`)
    }
    checkCreditMessage(message, {
      address,
      spendCapMicrostx,
      maxPriceMicrostx,
      chainId: offer.chainId,
      hosts: this.#source.hosts,
    })
    const signature = await this.#source.signMessage(message)
    const exchanged = await this.#source.post(`${baseUrl}/credit/tokens`, { message, signature })
    const answer = parseJson(exchanged.text)
    if (exchanged.status !== 201 && exchanged.status !== 200) {
      throw refusal(exchanged.status, exchanged.text, true)
    }
    const token = isObject(answer) ? answer.token : undefined
    if (typeof token !== 'string' || token.length === 0) {
      throw new AgentError('credit_message_refused', `${baseUrl}/credit/tokens answered no token`)
    }
    const expires =
      isObject(answer) && typeof answer.expires_at === 'string' ? answer.expires_at : ''
    const lifetimeMs = (offer.tokenMaxLifetimeSeconds ?? 3600) * 1000
    const expiresAt = Number.isNaN(Date.parse(expires))
      ? Date.now() + lifetimeMs
      : Date.parse(expires)
    return { token, expiresAt, ...limits }
  }
}
