import { resolve } from 'node:path'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { networkFor } from '#chain/network'
import { explorerUrlFor } from '#chain/explorer'
import { defineConfig } from '#chain/define_config'

const network = networkFor(env.get('STACKS_NETWORK') ?? 'devnet', env.get('STACKS_API_URL'))
const apiUrl = env.get('STACKS_API_URL') ?? network.defaultApiUrl

/**
 * The Stacks network the service settles on and the node it talks to.
 */
const chainConfig = defineConfig({
  network,
  apiUrl,
  apiKey: env.get('STACKS_API_KEY'),
  /** Time-out of one call to the Stacks API. */
  requestTimeoutMs: 10_000,
  /**
   * The largest answer read from the Stacks API, in bytes: the biggest is
   * tx/multiple for one payments:reconcile batch (500 transactions of a few KB).
   */
  maxAnswerBytes: 8_388_608,
  /** Time-out of the node probe in GET /health. */
  healthTimeoutMs: 2_000,
  platformPrivateKey: env.get('PLATFORM_PRIVATE_KEY')!,
  explorerUrl: explorerUrlFor(network.name, apiUrl, env.get('EXPLORER_URL')),
  withdrawalMemoPrefix: env.get('WITHDRAWAL_MEMO_PREFIX') ?? 'tb',
  devnet: {
    /** Block time of the devnet `npm run dev` starts; 0 mines right after each transaction. */
    blockTimeMs: env.get('DEVNET_BLOCK_TIME_MS') ?? 2_000,
    /** Where that devnet keeps its chain across restarts, like the embedded database under tmp/. */
    statePath: resolve(
      app.makePath(),
      env.get('DEVNET_STATE_PATH') ?? app.tmpPath(`devnet-${env.get('NODE_ENV')}.json`)
    ),
  },
})

export default chainConfig
export type { ChainConfig } from '#chain/define_config'
