import { ChainConfig } from '#chain/define_config'
import { bootedConfig } from '#core/injectable_config'
import { publicUrl } from '#core/public_url'
import { OUTPUT_LIMITS } from '#feeds/output_schema'
import { WebConfig } from '#web/define_config'

const chainConfig = bootedConfig(ChainConfig)
const webConfig = bootedConfig(WebConfig)

/**
 * What every page (and each of its islands) knows of the service: the
 * network the wallet must be on, where explorer links go, the public URL
 * that snippets name, how often live parts poll, and the limits forms show.
 */
export function siteContext() {
  const chain = chainConfig()
  const web = webConfig()
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
