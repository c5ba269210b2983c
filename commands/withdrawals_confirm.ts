import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { ConfirmWithdrawals } from '#withdrawals/confirm_withdrawals'

/**
 * Run every minute (start/scheduler.ts): settles signed withdrawals from the
 * chain and sends the queued ones. Safe on several instances at once.
 */
export default class WithdrawalsConfirm extends BaseCommand {
  static commandName = 'withdrawals:confirm'
  static description = 'Confirm, fail or re-send withdrawals from the chain; send queued ones'
  static options: CommandOptions = { startApp: true }

  async run() {
    const confirm = await this.app.container.make(ConfirmWithdrawals)
    const summary = await confirm.run()
    this.logger.info(
      `withdrawals: ${summary.confirmed} confirmed, ${summary.failed} failed, ${summary.rebroadcast} sent again, ${summary.pending} still pending, ${summary.unsettled} not settled now (see the errors logged)`
    )
    // A row it could not settle is a problem for whoever runs it by hand or from cron.
    if (summary.unsettled > 0) this.exitCode = 1
  }
}
