import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import { Clock } from '#core/clock'
import type Provider from '#models/provider'
import { E_NOT_PARTNER_BRIDGE } from '#provider_accounts/exceptions'
import { partnerSecrets } from '#provider_accounts/partner_secrets'
import { lockedProvider } from '#provider_accounts/provider_access'

/**
 * A new Partner Bridge secret, shown once. The old one stops at once: the
 * driver reads the key on every call.
 */
@inject()
export class RotatePartnerSecret {
  constructor(private clock: Clock) {}

  async execute(owned: Provider) {
    return db.transaction(async (trx) => {
      const provider = await lockedProvider(owned, trx)
      if (provider.integrationMode !== 'partner_bridge') throw new E_NOT_PARTNER_BRIDGE()
      const secret = partnerSecrets.issue()
      provider.hmacKeyEncrypted = secret.encryptedKey
      provider.hmacSecretIssuedAt = DateTime.fromMillis(this.clock.now())
      await provider.useTransaction(trx).save()
      return secret.secret
    })
  }
}
