import type { ApplicationService } from '@adonisjs/core/types'
import { CreditConfig } from '#credit/define_config'

/** Binds the prepaid credit config (config/credit.ts) for `@inject()` classes. */
export default class CreditProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.bindValue(CreditConfig, this.app.config.get<CreditConfig>('credit'))
  }
}
