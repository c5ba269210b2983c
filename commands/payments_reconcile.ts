import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { PaymentsConfig } from '#payments/define_config'
import { ReconcilePayments } from '#payments/reconcile_payments'

/**
 * Run every minute (cron or a scheduler): finishes payments whose buyer did
 * not stay for the confirmation. Safe on several instances at once.
 */
export default class PaymentsReconcile extends BaseCommand {
  static commandName = 'payments:reconcile'
  static description = 'Record, fail or release payments whose request ended before settlement'
  static options: CommandOptions = { startApp: true }

  async run() {
    const reconcile = await this.app.container.make(ReconcilePayments)
    const { reconcile: options } = await this.app.container.make(PaymentsConfig)
    const summary = await reconcile.run(options)
    this.logger.info(
      `payments reconciled: ${summary.confirmed} confirmed, ${summary.failed} failed, ${summary.released} released, ${summary.pending} still pending, ${summary.unsettled} not settled now (see the errors logged)`
    )
    // A row it could not settle is a problem for whoever runs it by hand or from cron.
    if (summary.unsettled > 0) this.exitCode = 1
  }
}
