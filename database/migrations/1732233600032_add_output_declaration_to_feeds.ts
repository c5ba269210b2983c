import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * What a provider declares its feed answers (docs/api.md, "Output
 * declaration"): a JSON Schema (2020-12) of the paid answer's `data` and an
 * example of it. Both optional; built-in feeds declare theirs in code
 * (app/feeds/builtin/schemas).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      ALTER TABLE feeds
        ADD COLUMN output_schema jsonb NULL,
        ADD COLUMN output_example jsonb NULL,
        ADD CONSTRAINT feeds_output_example_needs_schema
          CHECK (output_example IS NULL OR output_schema IS NOT NULL)
    `)
  }

  async down() {
    this.schema.raw(`
      ALTER TABLE feeds
        DROP CONSTRAINT feeds_output_example_needs_schema,
        DROP COLUMN output_example,
        DROP COLUMN output_schema
    `)
  }
}
