import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { LedgerAudit as Audit } from '#ledger/ledger_audit'

/** `node ace ledger:audit`: exits 1, listing each discrepancy, unless the ledger is sound. */
export default class LedgerAudit extends BaseCommand {
  static commandName = 'ledger:audit'
  static description =
    'Check the ledger: balanced postings, cached provider balances, every credit backed by a payment this service broadcast'

  static options: CommandOptions = { startApp: true }

  async run() {
    const audit = await this.app.container.make(Audit)
    const report = await audit.run()
    if (report.discrepancies.length > 0) {
      for (const discrepancy of report.discrepancies) this.logger.error(discrepancy)
      this.exitCode = 1
      return
    }
    this.logger.success(
      `ledger balanced: ${report.transactions} transactions, ${report.entries} entries`
    )
  }
}
