import type { ApplicationService } from '@adonisjs/core/types'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import { ChainConfig } from '#chain/define_config'
import { Clock } from '#core/clock'

/**
 * Binds the chain config (config/chain.ts) and the chain collaborators: the
 * Stacks node client and the platform wallet. Both are classes, so tests swap them with app.container.swap (e.g.
 * a StacksClient pointed at an in-process devnet).
 */
export default class ChainProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.bindValue(ChainConfig, this.app.config.get<ChainConfig>('chain'))
    this.app.container.singleton(StacksClient, async (resolver) => {
      const config = await resolver.make(ChainConfig)
      return new StacksClient({
        baseUrl: config.apiUrl,
        apiKey: config.apiKey,
        timeoutMs: config.requestTimeoutMs,
        maxBytes: config.maxAnswerBytes,
        clock: await resolver.make(Clock),
      })
    })
    this.app.container.singleton(PlatformWallet, async (resolver) => {
      const { platformPrivateKey, network } = await resolver.make(ChainConfig)
      return new PlatformWallet(platformPrivateKey, network)
    })
  }
}
