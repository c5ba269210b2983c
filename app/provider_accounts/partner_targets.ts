import type Feed from '#models/feed'
import Provider from '#models/provider'
import type { PartnerTarget } from '#feeds/partner_bridge/partner_request'
import { partnerSecrets } from '#provider_accounts/partner_secrets'

/** A provider as a Partner Bridge call target; null unless it is in Partner Bridge mode. */
export function partnerTargetFor(provider: Provider): PartnerTarget | null {
  const key = partnerSecrets.keyOf(provider.hmacKeyEncrypted)
  if (provider.integrationMode !== 'partner_bridge' || !provider.partnerEndpoint || !key) {
    return null
  }
  return { handle: provider.handle, partnerEndpoint: provider.partnerEndpoint, key }
}

/** Read on every call (one primary-key look-up), so a rotated secret stops at once. */
export async function partnerTargetOf(feed: Feed): Promise<PartnerTarget | null> {
  if (!feed.providerId) return null
  const provider = await Provider.find(feed.providerId)
  return provider ? partnerTargetFor(provider) : null
}
