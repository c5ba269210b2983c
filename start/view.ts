/*
|--------------------------------------------------------------------------
| Edge globals for the pages (resources/views)
|--------------------------------------------------------------------------
*/
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
