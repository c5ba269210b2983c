import env from '#start/env'
import { defineConfig } from '@adonisjs/lucid'
import embeddedPostgres from '#config/embedded_postgres'
import { processBudget } from '#core/process_budget'

/**
 * PostgreSQL only. DATABASE_URL names an external server; without it the
 * embedded server (config/embedded_postgres.ts) is used, and its provider
 * fills in the port once the server is up.
 */
const databaseUrl = env.get('DATABASE_URL')

/**
 * Each process's pools are its share of DB_MAX_CONNECTIONS, so the N web
 * workers and the scheduler of `npm start` stay within it together
 * (app/core/process_budget.ts, docs/operations.md#processes).
 */
const budget = processBudget({
  webWorkers: env.get('WEB_CONCURRENCY'),
  maxConnections: env.get('DB_MAX_CONNECTIONS'),
  poolMax: env.get('DB_POOL_MAX'),
})

function server() {
  return databaseUrl
    ? { connectionString: databaseUrl }
    : {
        host: '127.0.0.1',
        port: embeddedPostgres.port,
        user: embeddedPostgres.user,
        password: embeddedPostgres.password,
        database: embeddedPostgres.database,
      }
}

const dbConfig = defineConfig({
  connection: 'postgres',
  connections: {
    postgres: {
      client: 'pg',
      connection: server(),
      pool: { min: 0, max: budget.appPool },
      migrations: {
        naturalSort: true,
        paths: ['database/migrations'],
      },
    },
    /**
     * The rate limiter's counters (config/limiter.ts), on the same server: its
     * own small pool, so a count is committed at once whatever the request's
     * transaction does, and a busy app pool never delays the refusal of a flood.
     * Under a flood its requests wait at most 3 s for a connection (not knex's
     * 60 s), then are refused with 503 `rate_limiter_unavailable` (start/limiter.ts).
     */
    limiter: {
      client: 'pg',
      connection: server(),
      pool: { min: 0, max: budget.limiterPool, acquireTimeoutMillis: 3_000 },
    },
  },
})

export default dbConfig
