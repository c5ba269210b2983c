import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { ExpiredChallenges } from '#auth/expired_challenges'
import { SignInConfig } from '#auth/define_config'

/**
 * Run every hour (start/scheduler.ts): deletes the sign-in and wallet-link
 * challenges that expired more than a day ago. Safe on several instances at once.
 */
export default class ChallengesSweep extends BaseCommand {
  static commandName = 'challenges:sweep'
  static description = 'Delete sign-in challenges that expired longer ago than the retention'
  static options: CommandOptions = { startApp: true }

  async run() {
    const challenges = await this.app.container.make(ExpiredChallenges)
    const { sweep } = await this.app.container.make(SignInConfig)
    const deleted = await challenges.sweep(sweep)
    this.logger.info(`expired challenges deleted: ${deleted}`)
  }
}
