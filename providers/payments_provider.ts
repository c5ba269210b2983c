import type { ApplicationService } from '@adonisjs/core/types'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import { ChainConfig } from '#chain/define_config'
import { Clock } from '#core/clock'
import { PaymentsConfig } from '#payments/define_config'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { CachedPayerAccounts } from '#payments/payer_accounts'
import { PaymentRecords } from '#payments/payment_records'
import { PreBroadcastChecks } from '#payments/pre_broadcast_checks'
import { PaymentSettlement } from '#payments/settlement/payment_settlement'
import { LocalSettlement } from '#payments/settlement/local_settlement'
import { RemoteFacilitator } from '#payments/settlement/remote_facilitator'

/**
 * Binds the payments config (config/payments.ts) and the payment collaborators: the per-process confirmation watcher that
 * shares one batched status poll between every waiting payment, the cached
 * payer accounts, the paywall's chain checks, the one in-process settlement
 * (used by the facilitator, and by the paywall unless FACILITATOR_URL names a
 * remote facilitator). All are classes, so tests swap them with
 * app.container.swap.
 */
export default class PaymentsProvider {
  /** The watcher, once something has used it (shutdown must not create one to stop it). */
  #watcher?: ConfirmationWatcher

  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.bindValue(PaymentsConfig, this.app.config.get<PaymentsConfig>('payments'))

    this.app.container.singleton(ConfirmationWatcher, async (resolver) => {
      const { confirmation } = await resolver.make(PaymentsConfig)
      this.#watcher = new ConfirmationWatcher(
        await resolver.make(StacksClient),
        await resolver.make(Clock),
        confirmation
      )
      return this.#watcher
    })
    this.app.container.singleton(CachedPayerAccounts, async (resolver) => {
      const { payerAccounts } = await resolver.make(PaymentsConfig)
      return new CachedPayerAccounts(
        await resolver.make(StacksClient),
        await resolver.make(Clock),
        payerAccounts
      )
    })
    this.app.container.singleton(LocalSettlement, async (resolver) => {
      const { broadcast } = await resolver.make(PaymentsConfig)
      return new LocalSettlement(
        await resolver.make(StacksClient),
        await resolver.make(ConfirmationWatcher),
        broadcast,
        await resolver.make(Clock)
      )
    })
    this.app.container.singleton(PaymentSettlement, async (resolver) => {
      const { facilitatorUrl, facilitatorTimeoutMs, facilitatorMaxBytes, paywallProofKey } =
        await resolver.make(PaymentsConfig)
      if (!facilitatorUrl) return resolver.make(LocalSettlement)
      const wallet = await resolver.make(PlatformWallet)
      const chain = await resolver.make(ChainConfig)
      return new RemoteFacilitator({
        baseUrl: facilitatorUrl.replace(/\/+$/, ''),
        payTo: wallet.address,
        network: chain.network.caip2,
        timeoutMs: facilitatorTimeoutMs,
        maxBytes: facilitatorMaxBytes,
        proofKey: paywallProofKey,
        clock: await resolver.make(Clock),
      })
    })
    this.app.container.singleton(PreBroadcastChecks, async (resolver) => {
      const clock = await resolver.make(Clock)
      return new PreBroadcastChecks(
        await resolver.make(ConfirmationWatcher),
        await resolver.make(CachedPayerAccounts),
        await resolver.make(PaymentRecords),
        () => clock.now()
      )
    })
  }

  async shutdown() {
    this.#watcher?.stop()
  }
}
