import type { ApiResponse } from '@japa/api-client'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { formatStx } from '#ledger/money'
import app from '@adonisjs/core/services/app'
import { signMessage } from '#tests/support/sign_in'
import type { Wallet, World } from '#tests/simulation/world'

/** A credit token a buyer was given (POST /credit/tokens), with the limits its wallet signed. */
export interface HeldToken {
  token: string
  owner: Wallet
  spendCap: bigint
  maxPrice: bigint
  /** Virtual ms at which it expires. */
  expiresAt: number
}

/**
 * Asks for a credit message with these limits (POST /credit/nonce), signs it
 * with `signingKey` (the wallet's own unless told otherwise: a forgery) and
 * exchanges it for a token (POST /credit/tokens). Answers the exchange's
 * response, or the nonce's when it refused.
 */
export async function exchangeCreditToken(
  world: World,
  wallet: Wallet,
  limits: { spendCap: bigint; maxPrice: bigint },
  signingKey = wallet.key
): Promise<{ response: ApiResponse; token: HeldToken | null }> {
  const nonce = await world.drive(
    Promise.resolve(
      world.client.post('/credit/nonce').json({
        address: wallet.address,
        spend_cap_stx: formatStx(limits.spendCap),
        max_price_stx: formatStx(limits.maxPrice),
      })
    )
  )
  if (nonce.status() !== 200) return { response: nonce, token: null }
  const { message } = nonce.body()
  const response = await world.drive(
    Promise.resolve(
      world.client
        .post('/credit/tokens')
        .json({ message, signature: signMessage(message, signingKey) })
    )
  )
  if (response.status() !== 201) return { response, token: null }
  const body = response.body()
  return {
    response,
    token: {
      token: body.token,
      owner: wallet,
      spendCap: BigInt(body.spend_cap_microstx),
      maxPrice: BigInt(body.max_price_microstx),
      expiresAt: Date.parse(body.expires_at),
    },
  }
}

/** GET a feed paid from credit with `token` (and a payment-identifier, when given). */
export function creditCall(
  world: World,
  path: string,
  token: string,
  identifier?: string
): Promise<ApiResponse> {
  const request = world.client
    .get(path)
    .header('credit-token', token)
    .header('x-agent-name', 'simulated agent')
  return Promise.resolve(identifier ? request.header('payment-identifier', identifier) : request)
}

/** A refund challenge for the wallet's `amount`, signed with `signingKey` (the wallet's own by default). */
export async function signRefund(
  world: World,
  wallet: Wallet,
  amount: bigint,
  signingKey = wallet.key
): Promise<{ response: ApiResponse; signed: { message: string; signature: string } | null }> {
  const response = await world.drive(
    Promise.resolve(
      world.client
        .post('/credit/refunds/nonce')
        .json({ address: wallet.address, amount_stx: formatStx(amount) })
    )
  )
  if (response.status() !== 200) return { response, signed: null }
  const { message } = response.body()
  return { response, signed: { message, signature: signMessage(message, signingKey) } }
}

/** POST /credit/refunds with a signed refund challenge. */
export function requestRefund(world: World, signed: { message: string; signature: string }) {
  return Promise.resolve(world.client.post('/credit/refunds').json(signed))
}

/** The wallet's credit, read from its ledger account. */
export async function creditOf(address: string): Promise<bigint> {
  const ledger = await app.container.make(Ledger)
  return -(await ledger.balanceOf(accounts.buyerCredit(address)))
}
