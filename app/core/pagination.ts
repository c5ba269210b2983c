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
  const reachable = MAX_PAGE * size
  const matching = query
    .clone()
    .clearSelect()
    .clearOrder()
    .select(query.client.raw('1'))
    .limit(reachable + 1)
  const [rows, counted] = await Promise.all([
    query
      .clone()
      .offset((page - 1) * size)
      .limit(size),
    query.client.from(matching.as('matching')).count('* as total').first(),
  ])
  const found = Number(counted?.total ?? 0)
  const total = Math.min(found, reachable)
  return {
    rows: rows as Row[],
    page,
    size,
    total,
    more: found > reachable,
    pages: Math.max(1, Math.ceil(total / size)),
  }
}
