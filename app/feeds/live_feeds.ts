import type { Database } from '@adonisjs/lucid/database'
import type { DatabaseQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'

/**
 * The live feeds — active, not deleted, built in or of an active provider —
 * joined with their provider: the one scope every list of feeds starts from
 * (the marketplace, a provider's page, the registry, machine discovery), so
 * the pages and the machine listings show the same feeds.
 */
export function liveFeeds(db: Database) {
  return db
    .from('feeds')
    .leftJoin('providers', 'providers.id', 'feeds.provider_id')
    .where('feeds.status', 'active')
    .whereNull('feeds.deleted_at')
    .where((query) => {
      query.whereNull('feeds.provider_id').orWhere('providers.status', 'active')
    })
}

/** What a search looks in: a feed's names, description and category, and its provider's names. */
const SEARCHED_TEXT = `concat_ws(' ', feeds.slug, feeds.display_name, feeds.description,
  feeds.category, providers.handle, providers.display_name)`

/** `%` and `_` in a word are searched for as themselves (`\` is LIKE's escape character). */
function containing(word: string) {
  return `%${word.replace(/[\\%_]/g, '\\$&')}%`
}

/** Keeps the live feeds (`liveFeeds`) whose searched text contains every word of `words`. */
export function mentioning(query: DatabaseQueryBuilderContract, words: string | undefined) {
  for (const word of (words ?? '').split(/\s+/).filter(Boolean)) {
    query.whereRaw(`${SEARCHED_TEXT} ILIKE ?`, [containing(word)])
  }
  return query
}

/** The catalog's order, built-in first: a handle and a slug name one live feed, so it is total. */
export function inCatalogOrder(query: DatabaseQueryBuilderContract) {
  return query
    .orderByRaw('providers.handle NULLS FIRST')
    .orderBy('feeds.created_at')
    .orderBy('feeds.slug')
}
