import { inject } from '@adonisjs/core'
import { ReadinessReport } from '#health/readiness_report'

@inject()
export default class ShowReadinessController {
  constructor(private readiness: ReadinessReport) {}

  async handle() {
    return this.readiness.check()
  }
}
