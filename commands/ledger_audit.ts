import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { LedgerAudit as Audit } from '#ledger/ledger_audit'
import { WithdrawalChainAudit } from '#withdrawals/withdrawal_chain_audit'

/** `node ace ledger:audit`: exits 1, listing each discrepancy, unless the ledger is sound. */
export default class LedgerAudit extends BaseCommand {
  static commandName = 'ledger:audit'
  static description =
    'Check the ledger: balanced postings, cached provider balances, every credit backed by a payment this service broadcast, withdrawals posted as their status says and confirmed on chain as recorded'

  static options: CommandOptions = { startApp: true }

  async run() {
    const audit = await this.app.container.make(Audit)
    const report = await audit.run()
    const onChain = await this.app.container.make(WithdrawalChainAudit)
    const findings = [...report.discrepancies, ...(await onChain.run())]
    if (findings.length > 0) {
      for (const finding of findings) this.logger.error(finding)
      this.exitCode = 1
      return
    }
    this.logger.success(
      `ledger balanced: ${report.transactions} transactions, ${report.entries} entries`
    )
  }
}
