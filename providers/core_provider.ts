import type { ApplicationService } from '@adonisjs/core/types'
import { SignInConfig } from '#auth/define_config'
import { AppConfig } from '#core/app_config'
import { Clock } from '#core/clock'
import { RateLimitsConfig } from '#core/rate_limits_config'
import { rejectRefusedCommits } from '#core/refused_commits'
import { WebConfig } from '#web/define_config'

/**
 * Binds what every domain shares: the Clock every time check reads, so tests
 * swap one binding to control time; and the configs of the service itself
 * and of the domains without a provider of their own (config/app.ts's
 * `service`, config/rate_limits.ts, config/sign_in.ts,
 * config/web.ts) for `@inject()` classes. And a COMMIT PostgreSQL refuses
 * fails the transaction's commit (app/core/refused_commits.ts).
 */
export default class CoreProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    rejectRefusedCommits()
    this.app.container.singleton(Clock, () => new Clock())
    this.app.container.bindValue(AppConfig, this.app.config.get<AppConfig>('app.service'))
    this.app.container.bindValue(
      RateLimitsConfig,
      this.app.config.get<RateLimitsConfig>('rate_limits')
    )
    this.app.container.bindValue(SignInConfig, this.app.config.get<SignInConfig>('sign_in'))
    this.app.container.bindValue(WebConfig, this.app.config.get<WebConfig>('web'))
  }
}
