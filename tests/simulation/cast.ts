import app from '@adonisjs/core/services/app'
import type { ApiResponse } from '@japa/api-client'
import { type StacksTransactionWire, privateKeyToAddress } from '@stacks/transactions'
import { FEE, transfer } from '#tests/support/devnet'
import { paymentHeader } from '#tests/support/paid_calls'
import type { PartnerServer } from '#tests/support/partner_server'
import { registerProvider } from '#tests/support/providers'
import { signIn, signMessage } from '#tests/support/sign_in'
import { SignInConfig } from '#auth/define_config'
import type { PaymentRequired } from '#payments/x402'
import type { SeededRandom } from '#tests/simulation/seeded_random'
import type { Wallet, World } from '#tests/simulation/world'

/** The built-in feeds buyers call (no query parameters), with the upstream each reads first. */
export const BUILTIN_FEEDS = [
  { path: '/feeds/gas-prediction', upstream: 'ethereum_rpc' },
  { path: '/feeds/btc-sentiment', upstream: 'alternative_me' },
] as const

export interface Seller {
  handle: string
  providerId: string
  /** The owner wallet and its session, signed in again from `renewAt` on (`signedIn`). */
  owner: Wallet & { token: string; renewAt: number }
  feedPath: string
  price: bigint
  /** The partner's API (Partner Bridge), or null: the feed mirrors the world's site. */
  partner: PartnerServer | null
  /**
   * Wallets it may link for withdrawals, in the order it links them: the
   * owner wallet (paid at once) and another one (held after each link).
   */
  wallets: Wallet[]
  linked: Wallet | null
}

export function walletFrom(rng: SeededRandom): Wallet {
  const key = rng.privateKey()
  return { key, address: privateKeyToAddress(key, 'devnet') }
}

/** µSTX as the decimal STX string the registration API takes. */
function stx(microstx: bigint) {
  return `${microstx / 1_000_000n}.${(microstx % 1_000_000n).toString().padStart(6, '0')}`
}

/**
 * Registers the run's sellers through the API: one Partner Bridge provider
 * per partner server (the partner then holds the secret shown once) and one
 * Hosted Mirror provider polling the world's site. Prices are odd µSTX
 * amounts, so the 3 % fee is rounded down on every call.
 */
export async function registerSellers(world: World, rng: SeededRandom): Promise<Seller[]> {
  const sellers: Seller[] = []
  const kinds = [...world.partners, null]
  for (const [index, partner] of kinds.entries()) {
    const handle = `seller-${index + 1}`
    const price = rng.bigint(300_001n, 2_499_999n)
    const ownerKey = rng.privateKey()
    const signedInAt = world.clock.now()
    const session = await world.drive(signIn(world.client, ownerKey))
    const feed = { slug: 'prices', display_name: 'Prices', price_stx: stx(price) }
    const registered = await world.drive(
      registerProvider(
        world.client,
        session.token,
        partner
          ? { handle, partner_endpoint: partner.url, feed: { ...feed, source_path: '/v1/prices' } }
          : {
              handle,
              integration_mode: 'hosted_mirror',
              partner_endpoint: undefined,
              feed: {
                ...feed,
                source: { type: 'codehost_raw', url: world.mirror.url, poll_interval_seconds: 60 },
              },
            }
      )
    )
    if (partner) partner.secret = registered.hmac_secret!
    sellers.push({
      handle,
      providerId: registered.provider.id,
      owner: {
        key: ownerKey,
        address: session.walletAddress,
        token: session.token,
        renewAt: await renewalOf(signedInAt),
      },
      feedPath: `/feeds/p/${handle}/prices`,
      price,
      partner,
      wallets: [{ key: ownerKey, address: session.walletAddress }, walletFrom(rng)],
      linked: null,
    })
  }
  return sellers
}

/** An hour before a session signed in at `at` ends: no step of the run lasts that long. */
async function renewalOf(at: number) {
  const { sessionTtlMs } = await app.container.make(SignInConfig)
  return at + sessionTtlMs - 60 * 60_000
}

/** The seller, its owner signed in again once its session nears its end, as a person would. */
export async function signedIn(world: World, seller: Seller) {
  if (world.clock.now() < seller.owner.renewAt) return seller
  const signedInAt = world.clock.now()
  const session = await world.drive(signIn(world.client, seller.owner.key))
  Object.assign(seller.owner, { token: session.token, renewAt: await renewalOf(signedInAt) })
  return seller
}

/** The buyer's next nonce as an x402 client learns it: the node's possible_next_nonce. */
export async function nextNonce(world: World, address: string): Promise<bigint> {
  const response = await fetch(`${world.devnet.url}/extended/v1/address/${address}/nonces`)
  const body = (await response.json()) as { possible_next_nonce: number }
  return BigInt(body.possible_next_nonce)
}

export interface SignedPayment {
  tx: StacksTransactionWire
  header: string
  path: string
  /** GET for a feed, POST for a top-up (docs/credit.md#top-ups). */
  method: 'GET' | 'POST'
  identifier?: string
}

/** What a payment buys: a feed's answer, or credit. */
export function purposeOf(payment: Pick<SignedPayment, 'method'>) {
  return payment.method === 'POST' ? 'credit_top_up' : 'feed'
}

/**
 * A buyer's x402 payment for `path` (a feed, or with `method` POST a top-up):
 * the 402's requirements, an STX transfer of `amount` (the price unless told
 * otherwise) to the platform wallet, signed with `nonce`, and the
 * payment-signature header carrying it.
 */
export async function signPayment(
  world: World,
  buyer: Wallet,
  path: string,
  options: {
    nonce: bigint
    amount?: (price: bigint) => bigint
    identifier?: string
    fee?: bigint
    method?: 'GET' | 'POST'
  }
): Promise<SignedPayment> {
  const method = options.method ?? 'GET'
  const quote = await world.drive(Promise.resolve(request(world, method, path)))
  if (quote.status() !== 402) {
    throw new Error(`${method} ${path} answered ${quote.status()}, not 402`)
  }
  const required = quote.body() as PaymentRequired
  const price = BigInt(required.accepts[0].amount)
  const tx = await transfer({
    senderKey: buyer.key,
    recipient: world.payTo,
    amount: options.amount?.(price) ?? price,
    nonce: options.nonce,
    fee: options.fee ?? FEE,
  })
  return {
    tx,
    header: paymentHeader(required, tx.serialize(), options.identifier),
    path,
    method,
    identifier: options.identifier,
  }
}

function request(world: World, method: 'GET' | 'POST', path: string) {
  return method === 'POST' ? world.client.post(path) : world.client.get(path)
}

/** The paid request with the payment header (and an agent name). */
export function presentPayment(world: World, payment: SignedPayment): Promise<ApiResponse> {
  return Promise.resolve(
    request(world, payment.method, payment.path)
      .header('payment-signature', payment.header)
      .header('x-agent-name', 'simulated agent')
  )
}

/**
 * Links `wallet` as the seller's withdrawal wallet through the API: the new
 * wallet signs its challenge, and the owner too unless it is the owner wallet.
 */
export async function linkWallet(world: World, seller: Seller, wallet: Wallet) {
  const base = `/providers/id/${seller.providerId}`
  const challenge = await world.drive(
    Promise.resolve(
      world.client
        .post(`${base}/link-wallet/nonce`)
        .bearerToken(seller.owner.token)
        .json({ wallet_address: wallet.address })
    )
  )
  if (challenge.status() !== 200) return challenge
  const { nonce, message, owner_challenge: owner } = challenge.body()
  return world.drive(
    Promise.resolve(
      world.client
        .post(`${base}/link-wallet`)
        .bearerToken(seller.owner.token)
        .json({
          wallet_address: wallet.address,
          nonce,
          signature: signMessage(message, wallet.key),
          ...(owner
            ? {
                owner_nonce: owner.nonce,
                owner_signature: signMessage(owner.message, seller.owner.key),
              }
            : {}),
        })
    )
  )
}

/** POST …/withdraw as the owner. */
export function requestWithdrawal(
  world: World,
  seller: Seller,
  body: { amount: bigint; destination: string; key: string }
): Promise<ApiResponse> {
  return Promise.resolve(
    world.client
      .post(`/providers/id/${seller.providerId}/withdraw`)
      .bearerToken(seller.owner.token)
      .json({
        amount_microstx: Number(body.amount),
        destination_address: body.destination,
        idempotency_key: body.key,
      })
  )
}

/** `status` or `status code` of an answer: what a step's outcome records. */
export function outcomeOf(response: ApiResponse): string {
  const body = response.body() as { error?: string | { code?: string } } | undefined
  const code = typeof body?.error === 'string' ? body.error : body?.error?.code
  return code ? `${response.status()} ${code}` : `${response.status()}`
}
