import app from '@adonisjs/core/services/app'
import string from '@adonisjs/core/helpers/string'
import type { Secret } from '@adonisjs/core/helpers'
import { RuntimeException } from '@adonisjs/core/exceptions'
import type { LucidModel } from '@adonisjs/lucid/types/model'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { AccessToken, DbAccessTokensProvider } from '@adonisjs/auth/access_tokens'
import { SignInConfig } from '#auth/define_config'
import { Clock } from '#core/clock'

/** Identifiers are the bigserial ids of auth_access_tokens; anything else is not a token of ours. */
const TOKEN_ID = /^[1-9]\d{0,17}$/

/**
 * The session tokens of signed-in wallets: @adonisjs/auth's database access
 * tokens (stored as a SHA-256 hash, `oat_…` to the caller) with three changes:
 * expiry is read from the injectable Clock (the library reads the system
 * time), a bearer whose identifier is not a row id is refused before it
 * reaches the bigint column, and revoking a token needs its secret, not just
 * its id. It can also revoke all of a user's sessions but the current one
 * (linking a provider's withdrawal wallet does).
 */
export class SessionTokensProvider<Model extends LucidModel> extends DbAccessTokensProvider<Model> {
  constructor(tokenableModel: Model) {
    super({ tokenableModel })
  }

  /** `options.expiresIn` (seconds or a duration string) overrides `sessionTtlMs` of config/sign_in.ts. */
  async create(
    user: InstanceType<Model>,
    abilities: string[] = ['*'],
    options?: { name?: string; expiresIn?: string | number }
  ): Promise<AccessToken> {
    const userId = user.$primaryKeyValue
    if (!(user instanceof this.options.tokenableModel) || !userId) {
      throw new RuntimeException('Session tokens belong to a saved user')
    }
    const { sessionTtlMs } = await app.container.make(SignInConfig)
    const ttlMs =
      options?.expiresIn === undefined
        ? sessionTtlMs
        : string.seconds.parse(options.expiresIn) * 1000
    const now = await currentTime()
    const expiresAt = new Date(now.getTime() + ttlMs)
    const transient = AccessToken.createTransientToken(userId, this.tokenSecretLength)
    const row = {
      tokenable_id: userId,
      type: this.type,
      name: options?.name ?? null,
      hash: transient.hash,
      abilities: JSON.stringify(abilities),
      created_at: now,
      updated_at: now,
      last_used_at: null,
      expires_at: expiresAt,
    }
    const db = await this.getDb()
    const [inserted] = await db.table(this.table).insert(row).returning('id')
    return new AccessToken({
      identifier: typeof inserted === 'object' ? inserted.id : inserted,
      tokenableId: userId,
      type: this.type,
      prefix: this.prefix,
      secret: transient.secret,
      name: row.name,
      hash: row.hash,
      abilities,
      createdAt: now,
      updatedAt: now,
      lastUsedAt: null,
      expiresAt,
    })
  }

  async verify(tokenValue: Secret<string>): Promise<AccessToken | null> {
    const found = await this.#find(tokenValue)
    if (!found) return null
    const now = await currentTime()
    if (found.token.expiresAt && found.token.expiresAt <= now) return null
    const db = await this.getDb()
    await db.from(this.table).where('id', found.id).update({ last_used_at: now })
    found.token.lastUsedAt = now
    return found.token
  }

  async invalidate(tokenValue: Secret<string>): Promise<boolean> {
    const found = await this.#find(tokenValue)
    if (!found) return false
    const db = await this.getDb()
    const deleted = await db.from(this.table).where('id', found.id).delete()
    return Number(deleted) > 0
  }

  /** Revokes every session of the user but `kept`, in `client`'s transaction if it is one. */
  async revokeAllExcept(user: InstanceType<Model>, kept: AccessToken, client: QueryClientContract) {
    await client
      .from(this.table)
      .where({ tokenable_id: user.$primaryKeyValue, type: this.type })
      .whereNot('id', String(kept.identifier))
      .delete()
  }

  /** The stored token the bearer value names, when its secret matches the stored hash. */
  async #find(tokenValue: Secret<string>) {
    const decoded = AccessToken.decode(this.prefix, tokenValue.release())
    if (!decoded || !TOKEN_ID.test(decoded.identifier)) return null
    const db = await this.getDb()
    const row = await db.from(this.table).where({ id: decoded.identifier, type: this.type }).first()
    if (!row) return null
    const token = this.dbRowToAccessToken(row)
    return token.verify(decoded.secret) ? { id: decoded.identifier, token } : null
  }
}

async function currentTime() {
  const clock = await app.container.make(Clock)
  return new Date(clock.now())
}
