import { Route } from '@adonisjs/core/http'
import type { VineValidator } from '@vinejs/vine'
import type { RouteJSON } from '@adonisjs/core/types/http'

/**
 * What a route's controller takes and answers that the router cannot tell:
 * the VineJS validators it reads its input with, and the rest of its contract.
 */
export interface RouteInputs {
  /**
   * `request.validateUsing(validator)`: the JSON body; `'json'` for a body
   * taken as sent (any JSON document, checked by the action itself).
   */
  body?: VineValidator<any, any> | 'json'
  /** `request.validateUsing(validator, { data: request.qs() })`: the query string. */
  query?: VineValidator<any, any>
  /** The success status, when it is not 200: 201 (created), 202 (accepted), 204 (no content). */
  status?: 201 | 202 | 204
  /**
   * Authenticated by a request signature instead of a session: `'push'` is
   * Tollbooth signature v1 under the feed's push secret (docs/hosted-mirror.md).
   */
  signature?: 'push'
}

declare module '@adonisjs/core/http' {
  interface Route {
    /**
     * Declares the route's input validators, success status and signature,
     * so /openapi.json describes them (app/openapi/openapi_document.ts).
     */
    accepts(inputs: RouteInputs): this
  }
}

/**
 * Keyed by the route's handler: the committed router's RouteJSON holds the
 * same handler object the Route was built with, and nothing else of the
 * Route instance survives the commit.
 */
const declared = new WeakMap<object, RouteInputs>()

Route.macro('accepts', function (this: Route, inputs: RouteInputs) {
  declared.set(this.getHandler(), inputs)
  return this
})

/** What a committed route declared with `.accepts()`: nothing for a route that declares nothing. */
export function routeInputs(route: RouteJSON): RouteInputs {
  return declared.get(route.handler) ?? {}
}
