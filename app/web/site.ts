import app from '@adonisjs/core/services/app'
import type { ChainConfig } from '#chain/define_config'
import { publicUrl } from '#core/public_url'
import type { WebConfig } from '#config/web'
import { OUTPUT_LIMITS } from '#feeds/output_schema'

/**
 * What every page (and each of its islands) knows of the service: the
 * network the wallet must be on, where explorer links go, the public URL
 * that snippets name, how often live parts poll, and the limits forms show.
 */
export function siteContext() {
  const chain = app.config.get<ChainConfig>('chain')
  const web = app.config.get<WebConfig>('web')
  return {
    publicUrl: publicUrl(),
    network: chain.network.name,
    /** The address prefix of single-signature wallets here (ST… on testnet and devnet). */
    addressPrefix: chain.network.name === 'mainnet' ? 'SP' : 'ST',
    explorer: { url: chain.explorerUrl.replace(/\/+$/, ''), chain: chain.network.explorerChain },
    polls: {
      activityMs: web.activityPollMs,
      withdrawalMs: web.withdrawalPollMs,
      dashboardMs: web.dashboardPollMs,
    },
    /** The caps of a feed's output declaration (the dashboard's declaration card). */
    outputDeclaration: { maxBytes: OUTPUT_LIMITS.maxBytes },
  }
}

export type SiteContext = ReturnType<typeof siteContext>
