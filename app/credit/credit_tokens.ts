import { createHash, randomBytes } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import type { CreditLimits } from '#credit/credit_token_terms'
import type { CreditConfigValues } from '#credit/define_config'
import { type Microstx, parseMicrostx } from '#ledger/money'
import { prepared } from '#core/prepared'

/** The prefix of a credit token: a secret scanner (and a person) can tell what leaked. */
const PREFIX = 'tbc_'
/** Longer than any token we issue: a longer header is no token of ours and is not hashed. */
const MAX_TOKEN_LENGTH = 128

/** No credit token outlives this, whatever config/credit.ts says (docs/credit.md#credit-tokens). */
const LONGEST_LIFE_SECONDS = 3_600

/** How long a new credit token lives: config/credit.ts's `token.maxLifetimeSeconds`, at most 1 h. */
export function tokenLifeSeconds(config: CreditConfigValues) {
  return Math.min(config.token.maxLifetimeSeconds, LONGEST_LIFE_SECONDS)
}

export interface CreditToken {
  id: string
  address: string
  spendCap: Microstx
  maxPrice: Microstx
  spent: Microstx
  expiresAt: Date
}

/**
 * Credit tokens (docs/credit.md#credit-tokens): 32 random bytes shown once to
 * the wallet that signed for them; only their SHA-256 is stored. A token is
 * found by that hash, a unique column: with 256 bits of entropy, comparing
 * hashes in the index leaks nothing a guess could use.
 */
@inject()
export class CreditTokens {
  constructor(
    private db: Database,
    private clock: Clock
  ) {}

  /** Stores a new token of `address` with its signed limits, in `client`'s transaction. */
  async issue(
    client: QueryClientContract,
    grant: CreditLimits & { address: string; signInNonce: string; expiresAt: Date }
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = `${PREFIX}${randomBytes(32).toString('base64url')}`
    await client.table('credit_tokens').insert({
      token_hash: hashOf(token),
      address: grant.address,
      spend_cap_microstx: grant.spendCap.toString(),
      max_price_microstx: grant.maxPrice.toString(),
      sign_in_nonce: grant.signInNonce,
      expires_at: grant.expiresAt,
      created_at: new Date(this.clock.now()),
    })
    return { token, expiresAt: grant.expiresAt }
  }

  /** The unexpired token `value` names, or null. */
  async find(value: string): Promise<CreditToken | null> {
    if (!value.startsWith(PREFIX) || value.length > MAX_TOKEN_LENGTH) return null
    const found = await prepared(
      this.db.rawQuery(
        `SELECT id, address, spend_cap_microstx, max_price_microstx, spent_microstx, expires_at
           FROM credit_tokens WHERE token_hash = ? AND expires_at > ?`,
        [hashOf(value), new Date(this.clock.now())]
      )
    )
    const row = found.rows[0]
    if (!row) return null
    return {
      id: row.id,
      address: row.address,
      spendCap: parseMicrostx(row.spend_cap_microstx),
      maxPrice: parseMicrostx(row.max_price_microstx),
      spent: parseMicrostx(row.spent_microstx),
      expiresAt: row.expires_at,
    }
  }

  /**
   * Adds `price` to what the token spent, in the caller's transaction, when
   * it stays within the cap and the token has not expired; false (nothing
   * written) otherwise. The row lock makes concurrent calls of one token
   * take turns, and the database's CHECK backs the cap.
   */
  async spend(client: QueryClientContract, tokenId: string, price: Microstx) {
    const updated = await prepared(
      client.rawQuery(
        `UPDATE credit_tokens SET spent_microstx = spent_microstx + ?
          WHERE id = ? AND spent_microstx + ? <= spend_cap_microstx AND expires_at > ?
          RETURNING spent_microstx`,
        [price.toString(), tokenId, price.toString(), new Date(this.clock.now())]
      )
    )
    const row = updated.rows[0]
    return row ? { spent: parseMicrostx(row.spent_microstx) } : null
  }
}

function hashOf(token: string) {
  return createHash('sha256').update(token).digest('hex')
}
