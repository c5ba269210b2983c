import { inject } from '@adonisjs/core'
import { HealthReport } from '#health/health_report'

@inject()
export default class ShowHealthController {
  constructor(private report: HealthReport) {}

  async handle() {
    return this.report.build()
  }
}
