import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { ExpiredChallenges } from '#auth/expired_challenges'
import type { SignInConfig } from '#config/sign_in'

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
    const deleted = await challenges.sweep(this.app.config.get<SignInConfig>('sign_in').sweep)
    this.logger.info(`expired challenges deleted: ${deleted}`)
  }
}
