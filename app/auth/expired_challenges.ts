import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { Clock } from '#core/clock'

export interface SweepOptions {
  /** Challenges expired longer ago than this are deleted. */
  keepExpiredMs: number
  /** Rows deleted per statement. */
  batchSize: number
}

/**
 * Deletes the sign-in and wallet-link challenges (auth_challenges) that
 * expired more than `keepExpiredMs` before the Clock's now. Each batch is one
 * short statement whose rows are claimed with SKIP LOCKED, so several
 * instances may sweep at once without waiting on each other, and none holds
 * many locks for long; the run ends at the first short batch.
 */
@inject()
export class ExpiredChallenges {
  constructor(
    private db: Database,
    private clock: Clock
  ) {}

  /** Returns how many challenges it deleted. */
  async sweep({ keepExpiredMs, batchSize }: SweepOptions): Promise<number> {
    const expiredBefore = new Date(this.clock.now() - keepExpiredMs)
    let deleted = 0
    for (;;) {
      const batch = await this.db.rawQuery(
        `DELETE FROM auth_challenges WHERE nonce IN (
           SELECT nonce FROM auth_challenges WHERE expires_at < ?
            LIMIT ? FOR UPDATE SKIP LOCKED)`,
        [expiredBefore, batchSize]
      )
      deleted += batch.rowCount ?? 0
      if ((batch.rowCount ?? 0) < batchSize) return deleted
    }
  }
}
