import { resolve } from 'node:path'
import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { DEFAULT_MAX_CONNECTIONS } from '#core/process_budget'

/**
 * Room for the instance's processes (DB_MAX_CONNECTIONS, app/core/process_budget.ts)
 * and 20 more: migrations, `node ace` commands, psql, PostgreSQL's reserved slots.
 */
const maxConnections = (env.get('DB_MAX_CONNECTIONS') ?? DEFAULT_MAX_CONNECTIONS) + 20

/**
 * The PostgreSQL server the app starts by itself when DATABASE_URL is unset.
 * Development keeps its cluster under tmp/ across restarts (`node ace
 * dev:reset` deletes it with the devnet's chain); each test run gets a
 * throw-away cluster on a free port, deleted when the run ends.
 */
const embeddedPostgresConfig = {
  enabled: !env.get('DATABASE_URL'),
  // EMBEDDED_PG_DATA_DIR never applies to tests: their cluster is deleted when the run ends.
  dataDir: app.inTest
    ? app.tmpPath(`postgres-test-${process.pid}`)
    : resolve(
        app.makePath(),
        env.get('EMBEDDED_PG_DATA_DIR') ?? app.tmpPath(`postgres-${env.get('NODE_ENV')}`)
      ),
  /** 0 picks a free port at boot. */
  port: env.get('EMBEDDED_PG_PORT') ?? (app.inTest ? 0 : 54329),
  user: 'tollbooth',
  password: 'tollbooth',
  database: 'tollbooth',
  throwAway: app.inTest,
  /** Durability is pointless for a cluster deleted at the end of the run. */
  postgresFlags: [
    ...['-c', `max_connections=${maxConnections}`],
    ...(app.inTest
      ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
      : []),
  ],
}

export default embeddedPostgresConfig
export type EmbeddedPostgresConfig = typeof embeddedPostgresConfig
