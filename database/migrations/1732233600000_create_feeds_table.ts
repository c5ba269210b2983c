import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Every sellable feed, built-in (provider_id null) or a provider's. The
 * source driver named by source_type reads source_settings.
 */
export default class extends BaseSchema {
  protected tableName = 'feeds'

  async up() {
    this.schema.raw(`
      CREATE TABLE feeds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider_id uuid NULL,
        slug text NOT NULL CHECK (slug ~ '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9]){0,1}$'),
        display_name text NOT NULL,
        description text NOT NULL DEFAULT '',
        category text NULL,
        price_microstx bigint NOT NULL CHECK (price_microstx > 0),
        source_type text NOT NULL,
        source_settings jsonb NOT NULL DEFAULT '{}'::jsonb,
        update_frequency text NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE NULLS NOT DISTINCT (provider_id, slug)
      )
    `)
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
