import env from '#start/env'
import app from '@adonisjs/core/services/app'

/**
 * The PostgreSQL server the app starts by itself when DATABASE_URL is unset.
 * Development keeps its cluster under tmp/ across restarts; each test run
 * gets a throw-away cluster on a free port, deleted when the run ends.
 */
const embeddedPostgresConfig = {
  enabled: !env.get('DATABASE_URL'),
  dataDir: app.tmpPath(
    app.inTest ? `postgres-test-${process.pid}` : `postgres-${app.nodeEnvironment}`
  ),
  /** 0 picks a free port at boot. */
  port: env.get('EMBEDDED_PG_PORT') ?? (app.inTest ? 0 : 54329),
  user: 'tollbooth',
  password: 'tollbooth',
  database: 'tollbooth',
  throwAway: app.inTest,
  /** Durability is pointless for a cluster deleted at the end of the run. */
  postgresFlags: app.inTest
    ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
    : [],
}

export default embeddedPostgresConfig
export type EmbeddedPostgresConfig = typeof embeddedPostgresConfig
