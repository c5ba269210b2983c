import { randomBytes } from 'node:crypto'
import encryption from '@adonisjs/core/services/encryption'
import { deriveKey } from '#partner_verifier'

export interface IssuedSigningSecret {
  /** `<prefix>…`: shown to its holder once, never stored. */
  secret: string
  /** K = SHA-256(secret), encrypted with APP_KEY: what the database keeps. */
  encryptedKey: string
}

/**
 * Secrets of Tollbooth signature v1 (docs/partner-bridge.md#the-secret-and-the-key): the Partner Bridge
 * secret (`tbs_`, we sign) and the webhook push secret (`tbp_`, the provider
 * signs). Only the key K derived from a secret is kept, encrypted at rest: K
 * signs requests, so it is a secret too and is never logged or serialised.
 */
export function signingSecrets(prefix: `${string}_`, name: string) {
  return {
    issue(): IssuedSigningSecret {
      const secret = `${prefix}${randomBytes(32).toString('base64url')}`
      const key = deriveKey(secret)
      return { secret, encryptedKey: encryption.encrypt(key.toString('base64')) }
    },

    /** The signing key K of a stored encrypted key, or null when there is none. */
    keyOf(encryptedKey: string | null): Buffer | null {
      if (!encryptedKey) return null
      const decrypted = encryption.decrypt<string>(encryptedKey)
      if (typeof decrypted !== 'string') {
        throw new Error(`the stored ${name} key could not be decrypted with APP_KEY`)
      }
      return Buffer.from(decrypted, 'base64')
    },
  }
}
