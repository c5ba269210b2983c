import type { ApplicationService } from '@adonisjs/core/types'
import { WithdrawalsConfig } from '#withdrawals/define_config'

/** Binds the withdrawals config (config/withdrawals.ts) for `@inject()` classes. */
export default class WithdrawalsProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.bindValue(
      WithdrawalsConfig,
      this.app.config.get<WithdrawalsConfig>('withdrawals')
    )
  }
}
