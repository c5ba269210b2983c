import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { E_NOT_PARTNER_BRIDGE } from '#provider_accounts/exceptions'
import { partnerSecrets } from '#provider_accounts/partner_secrets'
import { ownedProvider } from '#provider_accounts/provider_access'

/**
 * A new Partner Bridge secret, shown once. The old one stops at once: the
 * driver reads the key on every call.
 */
export async function rotatePartnerSecret(providerId: string, wallet: string) {
  return db.transaction(async (trx) => {
    const provider = await ownedProvider(providerId, wallet, trx)
    if (provider.integrationMode !== 'partner_bridge') throw new E_NOT_PARTNER_BRIDGE()
    const secret = partnerSecrets.issue()
    provider.hmacKeyEncrypted = secret.encryptedKey
    provider.hmacSecretIssuedAt = DateTime.now()
    await provider.useTransaction(trx).save()
    return secret.secret
  })
}
