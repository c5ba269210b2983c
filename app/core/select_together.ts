import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { StrictValues } from '@adonisjs/lucid/types/querybuilder'

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
 */
export async function selectTogether(
  client: QueryClientContract,
  selects: readonly Select[]
): Promise<TextRow[][]> {
  if (selects.length === 0) return []
  const { sql, bindings } = togetherStatement(selects)
  const result = await client.rawQuery(sql, bindings)
  return rowsOfEach(selects, result.rows)
}

/** The one statement `selectTogether` sends for `selects`, one or more (`?` placeholders). */
export function togetherStatement(selects: readonly Select[]): Select & {
  bindings: StrictValues[]
} {
  const union = selects
    .map((select, index) => `SELECT ${index} AS part, to_jsonb(s) AS row FROM (${select.sql}) s`)
    .join('\nUNION ALL\n')
  return {
    sql: `SELECT u.part,
            (SELECT jsonb_object_agg(f.key, CASE WHEN jsonb_typeof(f.value) = 'number'
                                                 THEN to_jsonb(f.value #>> '{}') ELSE f.value END)
               FROM jsonb_each(u.row) f) AS row
       FROM (${union}) u`,
    bindings: selects.flatMap((select) => select.bindings ?? []),
  }
}

/** The rows of that statement, split back into each SELECT's, in order. */
export function rowsOfEach(selects: readonly Select[], rows: unknown[]): TextRow[][] {
  const each: TextRow[][] = selects.map(() => [])
  for (const { part, row } of rows as { part: number; row: TextRow | null }[]) {
    each[part].push(row ?? {})
  }
  return each
}
