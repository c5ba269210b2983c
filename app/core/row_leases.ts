import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { Clock } from '#core/clock'

/** A lease's holder works on its rows until `until` and ends it; a crashed holder's runs out. */
export interface Lease<Row> {
  rows: Row[]
  until: Date
  /** Gives the rows back (only those this lease still holds). */
  end(): Promise<void>
}

export interface LeaseRequest {
  /** A table with a `leased_until timestamptz NULL` column, and its key. */
  table: 'payments' | 'withdrawals'
  key: string
  /**
   * Which rows are due at `now` (the Clock's):
   * a condition over the table's columns, and its bindings.
   */
  due(now: number): { sql: string; bindings: unknown[] }
  orderBy: string
  limit: number
  /** The columns answered, of the leased rows (`t`); the key is always among them. */
  returning: string
  leaseMs: number
}

/** Whether a lease column (`leased_until`, `sending_until`) holds at `now`, by the Clock. */
export function leaseHeld(until: Date | null, now: number) {
  return until !== null && until.getTime() > now
}

/**
 * The one lease mechanism of the jobs (payments:reconcile, withdrawals:confirm),
 * used by the lifecycle that owns the rows: due rows whose lease is free are
 * taken until now + leaseMs in one statement (FOR UPDATE SKIP LOCKED, so two
 * runs never take the same row; no lock is held across network calls) and
 * marked touched now. Every time is the Clock's, bound as a parameter, never
 * the database's: several instances run side by side, and a lease lasts
 * minutes, far longer than their clocks differ (docs/architecture.md#leases).
 */
@inject()
export class RowLeases {
  constructor(
    private db: Database,
    private clock: Clock
  ) {}

  async take<Row>(request: LeaseRequest): Promise<Lease<Row>> {
    const { table, key } = request
    const now = this.clock.now()
    const due = request.due(now)
    const until = new Date(now + request.leaseMs)
    const leased = await this.db.rawQuery(
      `WITH due AS (
         SELECT ${key} FROM ${table}
          WHERE (${due.sql}) AND (leased_until IS NULL OR leased_until <= ?)
          ORDER BY ${request.orderBy}
          LIMIT ?
          FOR UPDATE SKIP LOCKED
       )
       UPDATE ${table} t SET leased_until = ?, updated_at = ?
         FROM due WHERE t.${key} = due.${key}
       RETURNING t.${key}, ${request.returning}`,
      [...due.bindings, new Date(now), request.limit, until, new Date(now)]
    )
    const rows = leased.rows as Row[]
    const keys = rows.map((row) => (row as Record<string, unknown>)[key])
    return {
      rows,
      until,
      end: async () => {
        if (keys.length === 0) return
        await this.db
          .from(table)
          .whereIn(key, keys as string[])
          .where('leased_until', until)
          .update({ leased_until: null })
      },
    }
  }
}
