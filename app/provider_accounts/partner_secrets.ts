import { randomBytes } from 'node:crypto'
import encryption from '@adonisjs/core/services/encryption'
import type Provider from '#models/provider'
import { deriveKey } from '#partner_verifier'

export interface IssuedPartnerSecret {
  /** `tbs_…`: shown to the provider once, never stored. */
  secret: string
  /** K = SHA-256(secret), encrypted with APP_KEY: what the provider row keeps. */
  encryptedKey: string
}

/**
 * Partner Bridge secrets (Tollbooth signature v1, ARCHITECTURE §6). Only
 * the signing key K derived from the secret is kept, encrypted at rest: K
 * signs requests, so it is a secret too and is never logged or serialised.
 */
export const partnerSecrets = {
  issue(): IssuedPartnerSecret {
    const secret = `tbs_${randomBytes(32).toString('base64url')}`
    const key = deriveKey(secret)
    return { secret, encryptedKey: encryption.encrypt(key.toString('base64')) }
  },

  /** The provider's signing key K, or null when it has no Partner Bridge secret. */
  keyOf(provider: Pick<Provider, 'hmacKeyEncrypted'>): Buffer | null {
    if (!provider.hmacKeyEncrypted) return null
    const decrypted = encryption.decrypt<string>(provider.hmacKeyEncrypted)
    if (typeof decrypted !== 'string') {
      throw new Error('the stored Partner Bridge key could not be decrypted with APP_KEY')
    }
    return Buffer.from(decrypted, 'base64')
  },
}
