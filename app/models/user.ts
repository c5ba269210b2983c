import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { AccessToken } from '@adonisjs/auth/access_tokens'
import { SessionTokensProvider } from '#auth/session_tokens'

/**
 * A wallet that signed in with Stacks (app/auth). The wallet address is the
 * identity: there are no passwords. `User.accessTokens` issues and checks
 * the bearer session tokens.
 */
export default class User extends BaseModel {
  static table = 'users'

  static accessTokens = new SessionTokensProvider(User)

  @column({ isPrimary: true })
  declare id: string

  /** Canonical c32 address (SP… on mainnet, ST… on testnet and devnet). */
  @column()
  declare walletAddress: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** The token the current request authenticated with (set by the auth guard). */
  declare currentAccessToken?: AccessToken
}
