import type { ApplicationService } from '@adonisjs/core/types'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import { ChainConfig } from '#chain/define_config'
import { secp256k1 } from '#chain/secp256k1'
import { Clock } from '#core/clock'

/**
 * Binds the chain config (config/chain.ts) and the chain collaborators: the
 * Stacks node client and the platform wallet. Both are classes, so tests swap them with app.container.swap (e.g.
 * a StacksClient pointed at an in-process devnet). The server logs once which
 * secp256k1 implementation verifies signatures (#chain/secp256k1).
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

  async ready() {
    if (this.app.getEnvironment() !== 'web') return
    const logger = await this.app.container.make('logger')
    logger.info('secp256k1 signature recovery: %s', secp256k1.description)
  }
}
