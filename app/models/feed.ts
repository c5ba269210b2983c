import { DateTime } from 'luxon'
import { BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import { type Microstx, microstxColumn } from '#ledger/money'
import Provider from '#models/provider'

/**
 * A jsonb column holding any JSON value: stringified on the way in, since
 * the driver would send an array as a PostgreSQL array.
 */
const jsonColumn = {
  prepare: (value: unknown) => (value === null ? null : JSON.stringify(value)),
}

/** A sellable feed: built-in (providerId null) or a provider's. */
export default class Feed extends BaseModel {
  static table = 'feeds'

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare providerId: string | null

  @column()
  declare slug: string

  @column()
  declare displayName: string

  @column()
  declare description: string

  @column()
  declare category: string | null

  @column(microstxColumn)
  declare priceMicrostx: Microstx

  /** Names the source driver (config/feeds.ts) that serves the feed's data. */
  @column()
  declare sourceType: string

  @column()
  declare sourceSettings: Record<string, unknown>

  /** JSON Schema (2020-12) of the paid answer's `data`, as the provider declared it (feed_declaration.ts). */
  @column(jsonColumn)
  declare outputSchema: Record<string, unknown> | null

  /** An example `data`, valid against outputSchema. */
  @column(jsonColumn)
  declare outputExample: unknown

  @column()
  declare updateFrequency: string | null

  @column()
  declare status: 'active' | 'paused'

  /** webhook_push: K of the feed's `tbp_…` push secret, encrypted with APP_KEY; kept across source changes. */
  @column({ serializeAs: null })
  declare pushKeyEncrypted: string | null

  @column.dateTime()
  declare pushSecretIssuedAt: DateTime | null

  /** Set when a provider deletes the feed; the row stays for payments and history. */
  @column.dateTime()
  declare deletedAt: DateTime | null

  @belongsTo(() => Provider)
  declare provider: BelongsTo<typeof Provider>

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
