import { createHash } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { Clock } from '#core/clock'

/**
 * The wallet a credit token is bound to (`credit-token` header): looked up
 * by the SHA-256 of the token (hex), unexpired by the Clock; null otherwise.
 */
@inject()
export class CreditTokenWallets {
  constructor(
    private db: Database,
    private clock: Clock
  ) {}

  async walletOf(token: string): Promise<string | null> {
    const row = await this.db
      .from('credit_tokens')
      .where('token_hash', createHash('sha256').update(token).digest('hex'))
      .where('expires_at', '>', new Date(this.clock.now()))
      .select('address')
      .first()
    return row?.address ?? null
  }
}
