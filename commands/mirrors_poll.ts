import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { MirrorPoller } from '#feeds/mirror_poller'

/**
 * Run every minute (the scheduler): polls each Hosted Mirror feed that is
 * due into its stored snapshot, owner wallet by owner wallet in turn,
 * claiming for at most `polling.runSeconds`; what it claimed drains before
 * the next minute (docs/hosted-mirror.md#polling). Safe on several instances
 * at once.
 */
export default class MirrorsPoll extends BaseCommand {
  static commandName = 'mirrors:poll'
  static description = 'Poll the due Hosted Mirror sources into their stored snapshots'
  static options: CommandOptions = { startApp: true }

  async run() {
    const poller = await this.app.container.make(MirrorPoller)
    const summary = await poller.run()
    this.logger.info(
      `mirrors polled: ${summary.polled} (${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.failed} failed)${summary.outOfTime ? '; out of time, the next run polls the rest' : ''}`
    )
  }
}
