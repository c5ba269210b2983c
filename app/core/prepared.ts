import { createHash } from 'node:crypto'
import type { RawQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'

/**
 * Names a query after its text, so PostgreSQL parses and plans it once per
 * connection and then only binds and runs it (docs/performance.md#prepared-statements).
 * For statements run over and over with a few texts at most (the ledger's
 * posting has one per number of accounts): a named statement stays on its
 * pooled connection for the connection's life. With
 * a transaction-mode connection pooler in front of PostgreSQL, the pooler
 * must keep prepared statements (PgBouncer ≥ 1.21, `max_prepared_statements`).
 */
export function prepared<Query extends RawQueryBuilderContract>(query: Query): Query {
  const { sql } = query.knexQuery.toSQL()
  query.knexQuery.options({ name: `q_${createHash('sha1').update(sql).digest('hex')}` })
  return query
}
