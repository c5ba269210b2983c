import type { ApplicationService } from '@adonisjs/core/types'
import { Clock } from '#core/clock'

/**
 * Binds what every domain shares: the Clock every time check reads, so tests
 * swap one binding to control time.
 */
export default class CoreProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(Clock, () => new Clock())
  }
}
