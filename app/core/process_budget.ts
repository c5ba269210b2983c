import { availableParallelism } from 'node:os'

/**
 * How many processes `npm start` runs and how many PostgreSQL connections
 * each may open (docs/operations.md#processes). Every process of an instance
 * computes the same numbers from the same variables, so together they stay
 * within DB_MAX_CONNECTIONS.
 */
export interface ProcessBudgetSettings {
  /** WEB_CONCURRENCY: HTTP workers; unset → one per core. */
  webWorkers?: number
  /** DB_MAX_CONNECTIONS: every connection this instance's processes may open together. */
  maxConnections?: number
  /** DB_POOL_MAX: the app pool of each process; unset → its share of the budget, at most 10. */
  poolMax?: number
}

/** PostgreSQL's default max_connections (100) less room for migrations, psql, backups and its reserve. */
export const DEFAULT_MAX_CONNECTIONS = 80
const MAX_APP_POOL = 10
const MAX_LIMITER_POOL = 4

export function processBudget(settings: ProcessBudgetSettings) {
  const webWorkers = settings.webWorkers ?? availableParallelism()
  const maxConnections = settings.maxConnections ?? DEFAULT_MAX_CONNECTIONS
  /** The web workers and the one scheduler. */
  const processes = webWorkers + 1
  const share = Math.floor(maxConnections / processes)
  // The rate limiter's own pool (config/database.ts) takes a third of the share, 1 to 4.
  const limiterPool = Math.min(MAX_LIMITER_POOL, Math.max(1, Math.floor(share / 3)))
  const appPool = settings.poolMax ?? Math.min(MAX_APP_POOL, Math.max(1, share - limiterPool))
  const connections = processes * (appPool + limiterPool)
  return {
    webWorkers,
    processes,
    appPool,
    limiterPool,
    maxConnections,
    /** Why the processes could open more connections than the budget; null when they cannot. */
    overBudget:
      connections > maxConnections
        ? `${processes} processes (WEB_CONCURRENCY=${webWorkers} and the scheduler) × ${appPool + limiterPool} connections (a pool of ${appPool} and the rate limiter's ${limiterPool}) = ${connections} exceed DB_MAX_CONNECTIONS=${maxConnections}: lower WEB_CONCURRENCY or DB_POOL_MAX, or raise DB_MAX_CONNECTIONS with PostgreSQL's max_connections`
        : null,
  }
}
