import { ChainConfig } from '#chain/define_config'
import { bootedConfig } from '#core/injectable_config'
import { publicUrl } from '#core/public_url'
import { OUTPUT_LIMITS } from '#feeds/output_schema'
import { MAX_PRICE, MIN_PRICE } from '#provider_accounts/rules'
import { TEXT_LIMITS } from '#provider_accounts/text_limits'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import { WebConfig } from '#web/define_config'
import type { SiteContext } from '#web/page_context'

const chainConfig = bootedConfig(ChainConfig)
const webConfig = bootedConfig(WebConfig)
const withdrawalsConfig = bootedConfig(WithdrawalsConfig)

/**
 * What every page (and each of its islands) knows of the service: the
 * network the wallet must be on, where explorer links go, the public URL
 * that snippets name, how often live parts poll, and the limits forms show
 * (so no page repeats a number of the server's).
 */
export function siteContext(): SiteContext {
  const chain = chainConfig()
  const web = webConfig()
  const withdrawals = withdrawalsConfig()
  return {
    publicUrl: publicUrl(),
    network: chain.network.name,
    addressPrefix: chain.network.name === 'mainnet' ? 'SP' : 'ST',
    explorer: { url: chain.explorerUrl.replace(/\/+$/, ''), chain: chain.network.explorerChain },
    polls: {
      activityMs: web.activityPollMs,
      withdrawalMs: web.withdrawalPollMs,
      dashboardMs: web.dashboardPollMs,
    },
    outputDeclaration: { maxBytes: OUTPUT_LIMITS.maxBytes },
    limits: {
      withdrawal: {
        minimumMicrostx: Number(withdrawals.minimumMicrostx),
        maximumMicrostx: Number(withdrawals.maximumMicrostx),
        historyMax: withdrawals.list.maxLimit,
      },
      price: { minimumMicrostx: Number(MIN_PRICE), maximumMicrostx: Number(MAX_PRICE) },
      text: TEXT_LIMITS,
    },
  }
}
