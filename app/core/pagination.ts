import type { DatabaseQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'

/**
 * The furthest page a list goes. It bounds the OFFSET and the count whatever
 * the table holds; a narrower search reaches what lies beyond.
 */
export const MAX_PAGE = 100

export interface PageRequest {
  /** From 1. */
  page: number
  size: number
}

export interface Page<Row> {
  rows: Row[]
  page: number
  size: number
  /** Matching rows, counted up to the last page a list goes to. */
  total: number
  /** More rows match than MAX_PAGE pages hold. */
  more: boolean
  /** How many pages the list has (at least 1: an empty list is one empty page). */
  pages: number
}

/**
 * One page of an ordered query: LIMIT/OFFSET, and a count that stops after
 * MAX_PAGE pages, both run by PostgreSQL. The query's ORDER BY must be total
 * (end with a unique column), or rows could repeat or go missing across pages.
 */
export async function paginate<Row>(
  query: DatabaseQueryBuilderContract,
  { page, size }: PageRequest
): Promise<Page<Row>> {
  const { rows, total, more } = await slice<Row>(
    query,
    { offset: (page - 1) * size, limit: size },
    MAX_PAGE * size
  )
  return { rows, page, size, total, more, pages: Math.max(1, Math.ceil(total / size)) }
}

/**
 * `limit` rows of an ordered query from `offset`, and how many rows match,
 * counted up to `reachable` (`more` when more match): both run by PostgreSQL,
 * for lists paged by offset rather than page number. The ORDER BY must be
 * total, as for paginate.
 */
export async function slice<Row>(
  query: DatabaseQueryBuilderContract,
  { offset, limit }: { offset: number; limit: number },
  reachable: number
): Promise<{ rows: Row[]; total: number; more: boolean }> {
  const matching = query
    .clone()
    .clearSelect()
    .clearOrder()
    .select(query.client.raw('1'))
    .limit(reachable + 1)
  const [rows, counted] = await Promise.all([
    query.clone().offset(offset).limit(limit),
    query.client.from(matching.as('matching')).count('* as total').first(),
  ])
  const found = Number(counted?.total ?? 0)
  return { rows: rows as Row[], total: Math.min(found, reachable), more: found > reachable }
}
