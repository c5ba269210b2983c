import type { ApiClient, ApiResponse } from '@japa/api-client'
import { randomPrivateKey } from '@stacks/transactions'
import Provider from '#models/provider'
import { signIn } from '#tests/support/sign_in'

/** A valid registration body: Partner Bridge with a first feed. */
export function registration(overrides: Record<string, unknown> = {}) {
  return {
    handle: 'acme-data',
    display_name: 'Acme Data',
    description: 'Spot prices from our own matching engine',
    website: 'https://acme.example',
    x_account: '@acme',
    integration_mode: 'partner_bridge',
    partner_endpoint: 'http://127.0.0.1:9',
    feed: {
      slug: 'btc-price',
      display_name: 'BTC price',
      price_stx: '0.005',
      source_path: '/v1/prices',
    },
    ...overrides,
  }
}

/** Registration overrides for a Hosted Mirror provider mirror-co whose one feed `slug` has `source`. */
export function mirrorRegistration(
  source: { type: string; [setting: string]: unknown },
  slug: string
) {
  return {
    handle: 'mirror-co',
    integration_mode: 'hosted_mirror',
    partner_endpoint: undefined,
    feed: { slug, display_name: 'Mirrored', price_stx: '0.005', source },
  }
}

/** Registration overrides for a Hosted Mirror provider whose one feed `slug` mirrors `url`. */
export function urlMirrorRegistration(url: string, slug = 'prices') {
  return mirrorRegistration({ type: 'codehost_raw', url }, slug)
}

/** A freshly signed-in wallet, ready to register and manage providers. */
export async function newOwner(client: ApiClient) {
  return signIn(client, randomPrivateKey())
}

/** POST /providers with a registration body (defaults overridden), as the given session. */
export function postRegistration(
  client: ApiClient,
  token: string,
  overrides: Record<string, unknown> = {}
) {
  return client.post('/providers').bearerToken(token).json(registration(overrides))
}

/** Registers through POST /providers and returns the 201 body (with the one-time secret). */
export async function registerProvider(
  client: ApiClient,
  token: string,
  overrides: Record<string, unknown> = {}
) {
  const response = await postRegistration(client, token, overrides)
  if (response.status() !== 201) {
    throw new Error(`POST /providers answered ${response.status()}: ${response.text()}`)
  }
  return response.body() as {
    provider: { id: string; handle: string; [key: string]: unknown }
    feed?: Record<string, unknown>
    hmac_secret?: string
    push_secret?: string
  }
}

/** Awaits a request (or anything resolving to a response) and asserts its status. */
export async function expectStatus(request: PromiseLike<ApiResponse>, status: number) {
  const response = await request
  response.assertStatus(status)
  return response
}

/** A provider row without going through the API (for ledger and model tests). */
export function createProviderRow(
  handle = `p-${Math.random().toString(36).slice(2, 10)}`,
  ownerWallet = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5'
) {
  return Provider.create({
    handle,
    displayName: handle,
    integrationMode: 'hosted_mirror',
    ownerWallet,
    custodialAddress: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
    custodialKeyEncrypted: 'not-a-real-key',
    status: 'active',
    pendingRevenueMicrostx: 0n,
    lifetimeEarnedMicrostx: 0n,
    totalWithdrawnMicrostx: 0n,
  })
}
