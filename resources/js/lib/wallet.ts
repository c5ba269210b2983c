import { ApiError, api } from './api'
import { type Session, clearSession, saveSession } from './session'
import { site } from './site'

/** Something the wallet (or its absence) said, in words. */
export class WalletError extends Error {}

const USER_REJECTED = -32_000
const USER_CANCELED = -31_001

/** @stacks/connect is loaded on the first wallet action only: the pages stay small. */
async function connect() {
  try {
    return await import('@stacks/connect')
  } catch {
    throw new WalletError(
      'The wallet connector could not be loaded. Reload the page and try again.'
    )
  }
}

async function inWords<T>(call: () => Promise<T>): Promise<T> {
  try {
    const result = await call()
    if (result === undefined || result === null) {
      throw new WalletError('Your wallet did not answer. Unlock it and try again.')
    }
    return result
  } catch (error) {
    if (error instanceof WalletError) throw error
    const code = (error as { code?: number }).code
    if (code === USER_REJECTED || code === USER_CANCELED) {
      throw new WalletError('You cancelled the request in your wallet.')
    }
    const detail = error instanceof Error && error.message ? ` (${error.message})` : ''
    throw new WalletError(`Your wallet refused the request${detail}.`)
  }
}

const NETWORK_WORDS = { mainnet: 'Mainnet', testnet: 'Testnet', devnet: 'Testnet (devnet)' }

/**
 * The Stacks address of the account the wallet has selected, on this
 * service's network. Leather and Xverse answer `getAddresses`; the first
 * time, @stacks/connect asks the person which wallet to use.
 */
export async function walletAddress(): Promise<string> {
  const { request } = await connect()
  const { addresses } = await inWords(() => request('getAddresses'))
  const stacks = addresses.filter((entry) => /^S[PTMN]/.test(entry.address))
  const match = stacks.find((entry) => entry.address.startsWith(site().addressPrefix))
  if (!match) {
    throw new WalletError(
      stacks.length
        ? `Your wallet is on another Stacks network. Switch it to ${NETWORK_WORDS[site().network]} and try again.`
        : 'Your wallet gave no Stacks address. Choose a Stacks account and try again.'
    )
  }
  return match.address
}

/** The wallet signs a message unchanged (`stx_signMessage`): the RSV signature the API checks. */
export async function signMessage(message: string) {
  const { request } = await connect()
  return inWords(() => request('stx_signMessage', { message }))
}

/**
 * Sign-In With Stacks through the API: a one-time challenge from POST
 * /auth/nonce, signed by the wallet, exchanged at POST /auth/verify for a
 * bearer session token.
 */
export async function signIn(): Promise<Session> {
  const address = await walletAddress()
  const challenge = await api<{ nonce: string; message: string }>('/auth/nonce', {
    method: 'POST',
    body: { wallet_address: address },
    auth: false,
  })
  const { signature, publicKey } = await signMessage(challenge.message)
  const verified = await api<{
    token: string
    expires_at: string
    user: { wallet_address: string }
  }>('/auth/verify', {
    method: 'POST',
    body: { wallet_address: address, nonce: challenge.nonce, signature, publicKey },
    auth: false,
  })
  const session = {
    token: verified.token,
    walletAddress: verified.user.wallet_address,
    expiresAt: verified.expires_at,
  }
  saveSession(session)
  return session
}

/**
 * Revokes the session at POST /auth/logout, then forgets it here, even when
 * the API could not be asked (the token then expires by itself).
 */
export async function signOut() {
  try {
    await api('/auth/logout', { method: 'POST' })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
  } finally {
    clearSession()
  }
}
