import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { StrictValues } from '@adonisjs/lucid/types/querybuilder'
import { prepared } from '#core/prepared'

/** One SELECT, as `rawQuery` takes it (`?` placeholders). */
export interface Select {
  sql: string
  bindings?: readonly StrictValues[]
}

/** A row as `selectTogether` returns it: numbers as their exact decimal text. */
export type TextRow = Record<string, string | boolean | null | object>

/**
 * Runs several SELECTs as one statement, so they read one snapshot in one
 * round trip. Each row comes back through JSON with every number as its exact
 * decimal text, as pg hands over bigint and numeric (µSTX stay exact), and
 * timestamps as ISO text. Returns each SELECT's rows, in order.
 *
 * `prepared` plans the statement once per connection (app/core/prepared.ts):
 * for a caller that runs the same one over and over (the simulation checks
 * twenty SELECTs after every step, and spent most of that time planning).
 * Not for a one-off: a named statement stays on its pooled connection.
 */
export async function selectTogether(
  client: QueryClientContract,
  selects: readonly Select[],
  { prepared: planOnce = false } = {}
): Promise<TextRow[][]> {
  if (selects.length === 0) return []
  const union = selects
    .map((select, index) => `SELECT ${index} AS part, to_jsonb(s) AS row FROM (${select.sql}) s`)
    .join('\nUNION ALL\n')
  const text = `SELECT u.part,
            (SELECT jsonb_object_agg(f.key, CASE WHEN jsonb_typeof(f.value) = 'number'
                                                 THEN to_jsonb(f.value #>> '{}') ELSE f.value END)
               FROM jsonb_each(u.row) f) AS row
       FROM (${union}) u`
  const query = client.rawQuery(
    text,
    selects.flatMap((select) => select.bindings ?? [])
  )
  const result = await (planOnce ? prepared(query) : query)
  const rows: TextRow[][] = selects.map(() => [])
  for (const { part, row } of result.rows as { part: number; row: TextRow | null }[]) {
    rows[part].push(row ?? {})
  }
  return rows
}
