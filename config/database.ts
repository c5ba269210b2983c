import env from '#start/env'
import { defineConfig } from '@adonisjs/lucid'
import embeddedPostgres from '#config/embedded_postgres'

/**
 * PostgreSQL only. DATABASE_URL names an external server; without it the
 * embedded server (config/embedded_postgres.ts) is used, and its provider
 * fills in the port once the server is up.
 */
const databaseUrl = env.get('DATABASE_URL')

const dbConfig = defineConfig({
  connection: 'postgres',
  connections: {
    postgres: {
      client: 'pg',
      connection: databaseUrl
        ? { connectionString: databaseUrl }
        : {
            host: '127.0.0.1',
            port: embeddedPostgres.port,
            user: embeddedPostgres.user,
            password: embeddedPostgres.password,
            database: embeddedPostgres.database,
          },
      pool: { min: 0, max: env.get('DB_POOL_MAX') ?? 10 },
      migrations: {
        naturalSort: true,
        paths: ['database/migrations'],
      },
    },
  },
})

export default dbConfig
