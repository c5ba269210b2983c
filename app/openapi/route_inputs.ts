import { Route } from '@adonisjs/core/http'
import type { VineValidator } from '@vinejs/vine'
import type { RouteJSON } from '@adonisjs/core/types/http'

/** The VineJS validators a route's controller reads its input with. */
export interface RouteInputs {
  /** `request.validateUsing(validator)`: the JSON body. */
  body?: VineValidator<any, any>
  /** `request.validateUsing(validator, { data: request.qs() })`: the query string. */
  query?: VineValidator<any, any>
}

declare module '@adonisjs/core/http' {
  interface Route {
    /**
     * Names the validators the route's controller uses, so /openapi.json
     * describes its input from them (app/openapi/openapi_document.ts).
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

/** What a committed route declared with `.accepts()`: nothing for a route that reads no input. */
export function routeInputs(route: RouteJSON): RouteInputs {
  return declared.get(route.handler) ?? {}
}
