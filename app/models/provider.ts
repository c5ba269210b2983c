import { DateTime } from 'luxon'
import { BaseModel, column, hasMany } from '@adonisjs/lucid/orm'
import type { HasMany } from '@adonisjs/lucid/types/relations'
import { type Microstx, microstxColumn } from '#ledger/money'
import Feed from '#models/feed'
import type { IntegrationMode } from '#provider_accounts/owner_api'

export type { IntegrationMode }

/**
 * A seller on the marketplace. The owner wallet signed in to register it and
 * stays its owner; revenue columns are caches of its ledger accounts.
 */
export default class Provider extends BaseModel {
  static table = 'providers'

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare handle: string

  @column()
  declare displayName: string

  @column()
  declare description: string

  @column()
  declare website: string | null

  @column()
  declare xAccount: string | null

  @column()
  declare integrationMode: IntegrationMode

  /** Partner Bridge only: an origin (scheme, host, optional port). */
  @column()
  declare partnerEndpoint: string | null

  @column()
  declare ownerWallet: string

  /** Generated at signup and shown as the provider's identity; informational only. */
  @column()
  declare custodialAddress: string

  @column({ serializeAs: null })
  declare custodialKeyEncrypted: string

  /** K = SHA-256(secret), encrypted with APP_KEY; the secret itself is never stored. */
  @column({ serializeAs: null })
  declare hmacKeyEncrypted: string | null

  @column.dateTime()
  declare hmacSecretIssuedAt: DateTime | null

  @column()
  declare status: 'pending' | 'active'

  @column(microstxColumn)
  declare pendingRevenueMicrostx: Microstx

  @column(microstxColumn)
  declare lifetimeEarnedMicrostx: Microstx

  @column(microstxColumn)
  declare totalWithdrawnMicrostx: Microstx

  /** Signed for by that wallet (POST /providers/id/:id/link-wallet); the only withdrawal destination. */
  @column()
  declare linkedWithdrawalWallet: string | null

  /** Withdrawals to a newly changed withdrawal wallet wait until then. */
  @column.dateTime()
  declare withdrawalWalletHeldUntil: DateTime | null

  @hasMany(() => Feed)
  declare feeds: HasMany<typeof Feed>

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
