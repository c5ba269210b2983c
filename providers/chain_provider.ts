import type { ApplicationService } from '@adonisjs/core/types'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import type { ChainConfig } from '#config/chain'

/**
 * Binds the chain collaborators: the Stacks node client and the platform
 * wallet. Both are classes, so tests swap them with app.container.swap (e.g.
 * a StacksClient pointed at an in-process devnet).
 */
export default class ChainProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(StacksClient, () => {
      const config = this.app.config.get<ChainConfig>('chain')
      return new StacksClient({
        baseUrl: config.apiUrl,
        apiKey: config.apiKey,
        timeoutMs: config.requestTimeoutMs,
      })
    })
    this.app.container.singleton(PlatformWallet, () => {
      const config = this.app.config.get<ChainConfig>('chain')
      return new PlatformWallet(config.platformPrivateKey, config.network)
    })
  }
}
