/*
|--------------------------------------------------------------------------
| Edge globals for the pages (resources/views)
|--------------------------------------------------------------------------
*/
import app from '@adonisjs/core/services/app'
import edge from 'edge.js'
import { feedPaths } from '#feeds/feed_paths'
import { siteContext } from '#web/site'
import { count, noun } from '#web/words'

/** The network, explorer, public URL and poll cadences, read per render (tests change them). */
edge.global('site', siteContext)

/** A feed's API path and marketplace page, from its name. */
edge.global('feedPaths', feedPaths)

/** JSON for an island's `data-props` attribute (Edge escapes it for the attribute). */
edge.global('toJson', (value: unknown) => JSON.stringify(value))

/** 12345 → "12,345" */
edge.global('count', count)

/** `{{ count(n) }} {{ noun(n, 'call') }}`: "1 call", "2 calls". */
edge.global('noun', noun)

/** JSON inside a <script type="application/json">: `<` escaped so no string can close the tag. */
edge.global('toScriptJson', (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c'))

/**
 * In production templates are compiled once (edge's cache), but edge.js 6.5
 * still lists the views' components/ directory from disk on every renderer it
 * creates — one per request, since the auth middleware shares `auth` with the
 * views: its components plugin decides whether to run again before the
 * provider turns the cache on. The list cannot change in production: read it once.
 */
if (app.inProduction) {
  const listComponents = edge.loader.listComponents.bind(edge.loader)
  let components: ReturnType<typeof listComponents> | undefined
  edge.loader.listComponents = () => (components ??= listComponents())
}
