import type { ApplicationService } from '@adonisjs/core/types'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import type { ChainConfig } from '#config/chain'
import type { PaymentsConfig } from '#config/payments'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { CachedPayerAccounts } from '#payments/payer_accounts'
import { PaymentClaims } from '#payments/payment_claims'
import { PaymentPreflight } from '#payments/payment_preflight'
import { PaymentSettlement } from '#payments/settlement/payment_settlement'
import { LocalSettlement } from '#payments/settlement/local_settlement'
import { RemoteFacilitator } from '#payments/settlement/remote_facilitator'
import { Clock } from '#core/clock'

/**
 * Binds the chain collaborators, the per-process confirmation watcher that
 * shares one batched status poll between every waiting payment, and the
 * in-process settlement the facilitator uses, and the paywall's settlement
 * (that one, or a remote facilitator at FACILITATOR_URL). All are classes, so
 * tests swap them with app.container.swap (e.g. a StacksClient pointed at an
 * in-process devnet).
 */
export default class ChainProvider {
  /** The watcher, once something has used it (shutdown must not create one to stop it). */
  #watcher?: ConfirmationWatcher

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
    this.app.container.singleton(ConfirmationWatcher, async (resolver) => {
      const config = this.app.config.get<PaymentsConfig>('payments')
      this.#watcher = new ConfirmationWatcher(
        await resolver.make(StacksClient),
        config.confirmation
      )
      return this.#watcher
    })
    this.app.container.singleton(CachedPayerAccounts, async (resolver) => {
      const config = this.app.config.get<PaymentsConfig>('payments')
      const clock = await resolver.make(Clock)
      return new CachedPayerAccounts(await resolver.make(StacksClient), {
        ttlMs: config.payerAccountTtlMs,
        maxEntries: 10_000,
        now: () => clock.now(),
      })
    })
    this.app.container.singleton(PaymentSettlement, async (resolver) => {
      const config = this.app.config.get<PaymentsConfig>('payments')
      if (config.facilitatorUrl) {
        const wallet = await resolver.make(PlatformWallet)
        return new RemoteFacilitator({
          baseUrl: config.facilitatorUrl.replace(/\/+$/, ''),
          payTo: wallet.address,
          network: this.app.config.get<ChainConfig>('chain').network.caip2,
          timeoutMs: config.facilitatorTimeoutMs,
          proofKey: config.paywallProofKey,
        })
      }
      return resolver.make(LocalSettlement)
    })
    this.app.container.singleton(LocalSettlement, async (resolver) => {
      return new LocalSettlement(
        await resolver.make(StacksClient),
        await resolver.make(ConfirmationWatcher),
        this.app.config.get<PaymentsConfig>('payments').broadcast
      )
    })
    this.app.container.singleton(PaymentPreflight, async (resolver) => {
      const clock = await resolver.make(Clock)
      return new PaymentPreflight(
        await resolver.make(ConfirmationWatcher),
        await resolver.make(CachedPayerAccounts),
        await resolver.make(PaymentClaims),
        () => clock.now()
      )
    })
    this.app.container.singleton(PlatformWallet, () => {
      const config = this.app.config.get<ChainConfig>('chain')
      return new PlatformWallet(config.platformPrivateKey, config.network)
    })
  }

  async shutdown() {
    this.#watcher?.stop()
  }
}
