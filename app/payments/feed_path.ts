import { urlFor } from '@adonisjs/core/services/url_builder'
import type { LookupList, UrlFor } from '@adonisjs/core/types/http'

/** A built-in feed by id, or a provider's feed by handle and slug. */
export type FeedRef = { id: string } | { handle: string; slug: string }

/**
 * `urlFor` without route types: the app does not generate them (they would
 * live in the git-ignored `.adonisjs/`), so a route name is checked when the
 * path is made rather than by tsc.
 */
const routeUrl = urlFor as unknown as UrlFor<LookupList>

/**
 * A feed's paid path, made by the router from the routes that serve it
 * (`feeds.builtin`, `feeds.provider` in app/payments/routes.ts). It is also
 * the paid resource's identity stored with every payment, which a replay
 * must match (`resourceIdentity`), so every place that names a feed's path
 * takes it from here.
 */
export function paidFeedPath(feed: FeedRef) {
  return 'id' in feed
    ? routeUrl('feeds.builtin', { id: feed.id })
    : routeUrl('feeds.provider', { handle: feed.handle, slug: feed.slug })
}
