import type { ApplicationService } from '@adonisjs/core/types'
import type { EmbeddedPostgresServer } from '#core/embedded_postgres_server'

/**
 * Starts the embedded PostgreSQL server before Lucid boots (this provider is
 * listed first) and stops it after Lucid's pool is closed (providers shut
 * down in reverse order). Does nothing when DATABASE_URL is set, which
 * production requires (start/env.ts): `embedded-postgres` is a development
 * dependency, loaded only here, only when it runs.
 */
export default class EmbeddedPostgresProvider {
  #server?: EmbeddedPostgresServer

  constructor(protected app: ApplicationService) {}

  async boot() {
    const { default: config } = await import('#config/embedded_postgres')
    if (!config.enabled) return

    const logger = await this.app.container.make('logger')
    const { EmbeddedPostgresServer } = await import('#core/embedded_postgres_server')
    this.#server = new EmbeddedPostgresServer(config, (message) => logger.info(message))
    const port = await this.#server.start()
    for (const name of Object.keys(this.app.config.get<object>('database.connections'))) {
      this.app.config.set(`database.connections.${name}.connection.port`, port)
    }
  }

  async shutdown() {
    await this.#server?.stop()
  }
}
