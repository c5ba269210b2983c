import { verifyMessageSignatureRsv } from '@stacks/encryption'
import { privateKeyToPublic } from '@stacks/transactions'
import {
  BASE_URL,
  PAY_TO,
  PRIVATE_KEY,
  STACKS_API,
  json,
  nonces,
  quote,
  stubFetch,
} from './stub_fetch.ts'

const CHAIN_ID = 'stacks:2147483648'
const STATEMENT =
  /^Spend at most ([\d.]+) STX of my Tollbooth credit, at most ([\d.]+) STX per call\.$/

export interface CreditServiceOptions {
  /** The feed's price (µSTX). */
  price?: bigint
  /** Whether the 402 offers credit. */
  offersCredit?: boolean
  topUpMinimum?: bigint
  /** Rewrites the message the service issues for signing (an attack, a bug). */
  message?: (message: string) => string
  /** The origin the 402's credit extension names in its URLs (default: the service's). */
  offerOrigin?: string
  /** The wallet's credit before the client tops up (bought by another client). */
  balance?: bigint
  /** Top-ups stay settling: 202 with a receipt, and the status URL answers 202. */
  topUpPending?: boolean
}

function microstx(stx: string) {
  const [whole, fraction = ''] = stx.split('.')
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'))
}

/**
 * A stand-in Tollbooth with prepaid credit as docs/credit.md describes it (the wire protocol
 * only): `/feeds/<id>` paid per call or with `credit-token`, POST /credit/nonce, /credit/tokens
 * and /credit/top-ups; and the Stacks API's nonces. Its state is open to the tests.
 */
export function creditService(options: CreditServiceOptions = {}) {
  const price = options.price ?? 5_000n
  const state = {
    balance: options.balance ?? 0n,
    /** Transfers received: top-ups and per-call payments. */
    transfers: [] as { kind: 'top_up' | 'call'; amount: bigint }[],
    tokens: new Map<string, { cap: bigint; maxPrice: bigint; spent: bigint }>(),
    issued: [] as string[],
    exchanges: 0,
    /** Debits by payment-identifier: a retry with the same id is answered without a debit. */
    debits: new Map<string, string>(),
    creditRequests: [] as { token: string; id: string | null }[],
    /**
     * Answers to the next credit requests instead of serving them: 'lose' and 'unconfirmed'
     * (503 credit_call_outcome_unknown) after debiting.
     */
    next: [] as ('lose' | 'unconfirmed' | 'expire')[],
  }
  const offer = {
    header: 'credit-token',
    chainId: CHAIN_ID,
    nonceUrl: `${options.offerOrigin ?? BASE_URL}/credit/nonce`,
    tokenUrl: `${options.offerOrigin ?? BASE_URL}/credit/tokens`,
    topUpUrl: `${options.offerOrigin ?? BASE_URL}/credit/top-ups`,
    topUpMinimum: String(options.topUpMinimum ?? 10_000n),
    topUpMaximum: '100000000',
    tokenMaxLifetimeSeconds: 3600,
  }
  /** A debit the service could not confirm (it happened: the stub debits first). */
  const unconfirmed = () =>
    json(
      503,
      { error: { code: 'credit_call_outcome_unknown', message: 'not confirmed' } },
      { 'retry-after': '0' }
    )
  const feedQuote = (error?: string) => {
    const answer = quote(
      String(price),
      options.offersCredit === false ? undefined : { credit: { info: offer } }
    )
    if (!error) return answer
    return answer.json().then((body) => json(402, { ...body, error }))
  }

  const { fetch, requests } = stubFetch(async (request) => {
    const url = new URL(request.url)
    if (url.origin === STACKS_API) return nonces(state.transfers.length)
    const paid = request.headers.has('payment-signature')
    if (url.pathname === '/facilitator/discovery/resources') {
      const accepts = [
        { scheme: 'exact', network: CHAIN_ID, amount: String(price), asset: 'STX', payTo: PAY_TO },
      ]
      const item = { resource: `${BASE_URL}/feeds/whale-alerts`, accepts, tags: ['crypto'] }
      return json(200, { items: [item], pagination: { total: 1 } })
    }
    if (url.pathname === '/credit/nonce') {
      const { address, spend_cap_stx: cap, max_price_stx: max } = await request.json()
      const nonce = `n${state.issued.length}`
      const message = [
        'tollbooth.test wants you to sign in with your Stacks account:',
        address,
        '',
        `Spend at most ${cap} STX of my Tollbooth credit, at most ${max} STX per call.`,
        '',
        `URI: ${BASE_URL}`,
        'Version: 1',
        'Chain ID: 2147483648',
        `Nonce: ${nonce}`,
        'Issued At: 2026-11-26T07:00:00.000Z',
        'Expiration Time: 2026-11-26T07:05:00.000Z',
      ].join('\n')
      const issued = options.message ? options.message(message) : message
      state.issued.push(message)
      return json(200, { message: issued, nonce })
    }
    if (url.pathname === '/credit/tokens') {
      const { message, signature } = await request.json()
      const publicKey = privateKeyToPublic(PRIVATE_KEY) as string
      if (
        !state.issued.includes(message) ||
        !verifyMessageSignatureRsv({ message, signature, publicKey })
      ) {
        return json(401, { error: { code: 'signature_invalid', message: 'not signed' } })
      }
      const [, cap, max] = STATEMENT.exec(message.split('\n')[3])!
      const token = `tbc_${++state.exchanges}`
      state.tokens.set(token, { cap: microstx(cap), maxPrice: microstx(max), spent: 0n })
      return json(201, { token, expires_at: '2100-01-01T00:00:00.000Z' })
    }
    if (url.pathname === '/credit/top-ups') {
      const amount = microstx(url.searchParams.get('amount_stx')!)
      if (!paid) return quote(String(amount))
      state.transfers.push({ kind: 'top_up', amount })
      if (options.topUpPending) {
        const receipt = { txid: '0x00', token: 'rcpt', status_url: '/payments/0x00' }
        return json(202, { x402Version: 2, error: 'settlement_pending', receipt })
      }
      state.balance += amount
      return json(200, {
        credit: { balance_microstx: Number(state.balance) },
        top_up: { txid: '0x00', amount_microstx: Number(amount) },
      })
    }
    if (url.pathname.startsWith('/payments/')) {
      return json(202, { x402Version: 2, error: 'settlement_pending' })
    }
    if (paid) {
      state.transfers.push({ kind: 'call', amount: price })
      return json(200, { data: { paid: 'on chain' }, price: Number(price) })
    }
    const token = request.headers.get('credit-token')
    if (token === null) return feedQuote()
    const id = request.headers.get('payment-identifier')
    state.creditRequests.push({ token, id })
    const limits = state.tokens.get(token)
    const step = state.next.shift()
    if (step === 'expire') state.tokens.delete(token)
    if (!limits || step === 'expire') {
      return json(401, { error: { code: 'credit_token_invalid', message: 'expired' } })
    }
    const served = JSON.stringify({ data: { paid: 'from credit' }, price: Number(price) })
    if (id && state.debits.has(id)) {
      if (step === 'lose') throw new TypeError('fetch failed')
      if (step === 'unconfirmed') return unconfirmed()
      return new Response(state.debits.get(id), { status: 200 })
    }
    if (price > limits.maxPrice) return feedQuote('credit_price_above_limit')
    if (limits.spent + price > limits.cap) return feedQuote('credit_spend_cap_reached')
    if (state.balance < price) return feedQuote('insufficient_credit')
    limits.spent += price
    state.balance -= price
    if (id) state.debits.set(id, served)
    if (step === 'lose') throw new TypeError('fetch failed')
    if (step === 'unconfirmed') return unconfirmed()
    return new Response(served, {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'credit-balance': `balance=${state.balance}; token_remaining=${limits.cap - limits.spent}`,
      },
    })
  })
  return { fetch, requests, state }
}
