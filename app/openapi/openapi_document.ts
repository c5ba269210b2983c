import { inject } from '@adonisjs/core'
import type { RouteJSON } from '@adonisjs/core/types/http'
import type { VineValidator } from '@vinejs/vine'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { publicUrl } from '#core/public_url'
import { BUILTIN_FEEDS, type BuiltinFeedDefinition } from '#feeds/builtin/catalog'
import { feedDeclaration } from '#feeds/feed_declaration'
import { PAID_FEED_ROUTES, paidFeedPath } from '#feeds/feed_paths'
import { formatStx, type Microstx } from '#ledger/money'
import { routeInputs } from '#openapi/route_inputs'
import { COMPONENTS } from '#openapi/x402_components'

export const OPENAPI_VERSION = '3.1.0'

type Json = Record<string, unknown>

export interface OpenApiDocumentJson {
  openapi: string
  info: Json
  servers: { url: string }[]
  paths: Record<string, Record<string, Json>>
  components: Json
  [extension: `x-${string}`]: unknown
}

/** Where the price of each provider feed is read (the registry and the discovery API). */
const PROVIDER_PRICE_SOURCES = ['/registry/feeds', '/facilitator/discovery/resources']

const errorResponse = { $ref: '#/components/responses/Error' }

/**
 * GET /openapi.json: OpenAPI 3.1 of every API route the router holds (the
 * pages excepted, app/web/page_routes.ts), built from the routes themselves:
 * method and pattern, name (operationId), middleware (bearer session), the
 * VineJS validators they declare with `.accepts()` (request schemas, via
 * VineJS's own toJSONSchema). The paid feed routes carry their 402 and
 * `x-payment-info` as x402scan reads it (price in STX, protocols: x402
 * with asset, network, payTo and the amount in µSTX); each built-in feed
 * is its own path with its own price and declared answer.
 */
@inject()
export class OpenApiDocument {
  constructor(
    private wallet: PlatformWallet,
    private chain: ChainConfig
  ) {}

  build(routes: RouteJSON[]): OpenApiDocumentJson {
    const paths: OpenApiDocumentJson['paths'] = {}
    const add = (path: string, method: string, operation: Json) => {
      paths[path] = { ...paths[path], [method]: operation }
    }
    for (const route of routes) {
      for (const method of route.methods.filter((name) => name !== 'HEAD')) {
        const verb = method.toLowerCase()
        if (route.name === PAID_FEED_ROUTES.builtin.name) {
          for (const feed of BUILTIN_FEEDS) {
            add(paidFeedPath({ id: feed.id }), verb, this.#builtinFeed(route, feed))
          }
        } else if (route.name === PAID_FEED_ROUTES.provider.name) {
          add(openApiPath(route.pattern), verb, this.#providerFeed(route))
        } else {
          add(openApiPath(route.pattern), verb, routeOperation(route))
        }
      }
    }
    return {
      openapi: OPENAPI_VERSION,
      info: {
        'title': 'Tollbooth API',
        'version': '1',
        'description':
          'Pay-per-call JSON data feeds, paid in STX over x402 v2 on Stacks, and the API providers sell them through.',
        'x-guidance':
          'List the feeds with GET /registry/feeds. Call a feed with GET /feeds/<id> (built-in) or /feeds/p/<handle>/<slug> (a provider feed): the 402 says what to pay (x402 v2, exact scheme, STX); send the signed transfer in the payment-signature header and get the data with a payment-response header.',
      },
      servers: [{ url: publicUrl() }],
      paths,
      components: COMPONENTS,
    }
  }

  #builtinFeed(route: RouteJSON, feed: BuiltinFeedDefinition): Json {
    const price = feed.priceMicrostx as Microstx
    const declaration = feedDeclaration({
      providerId: null,
      slug: feed.id,
      sourceType: 'builtin',
      sourceSettings: {},
      priceMicrostx: price,
      outputSchema: null,
      outputExample: null,
    })
    const output = declaration.output && {
      schema: withDataId(declaration.output.schema, feed),
      example: declaration.output.example,
    }
    return {
      ...paidOperation(route, declaration.query, output),
      'operationId': `${route.name}.${feed.id}`,
      'summary': feed.displayName,
      'description': `${feed.description}. ${formatStx(price)} STX per call; updated every ${feed.updateFrequency}.`,
      'x-payment-info': this.#paymentInfo(price),
    }
  }

  #providerFeed(route: RouteJSON): Json {
    const where = PROVIDER_PRICE_SOURCES.join(' or ')
    return {
      ...paidOperation(route, [], null),
      'summary': "A provider's feed",
      'description': `A feed a provider sells. The price is per feed: read it in ${where} (each feed's price), or in the 402's accepts[0].amount (µSTX).`,
      'x-payment-info': {
        ...this.#paymentInfo(null),
        'description': `The price is per feed: read it in ${where}.`,
        'x-price-sources': PROVIDER_PRICE_SOURCES,
      },
    }
  }

  /**
   * x402scan's `x-payment-info`: `price` in STX (decimal; `fixed`, or
   * `dynamic` when each feed of the route has its own) and
   * `protocols: [{x402: …}]` with what the 402 asks: scheme, network,
   * asset, payTo and, when fixed, the amount in µSTX.
   */
  #paymentInfo(price: Microstx | null): Json {
    const x402 = {
      scheme: 'exact',
      network: this.chain.network.caip2,
      asset: 'STX',
      payTo: this.wallet.address,
      ...(price === null ? {} : { amount: price.toString() }),
    }
    return {
      price:
        price === null
          ? { mode: 'dynamic', currency: 'STX' }
          : { mode: 'fixed', currency: 'STX', amount: formatStx(price) },
      protocols: [{ x402 }],
    }
  }
}

/**
 * A feed's answer schema embeds its `data` as the resource `$id: 'data'`
 * (app/feeds/feed_declaration.ts). One document holds sixteen of them, so
 * each gets an absolute id of its own; its `#/$defs/…` still resolve inside it.
 */
function withDataId(schema: Json, feed: BuiltinFeedDefinition): Json {
  const properties = schema.properties as Record<string, Json>
  const $id = publicUrl(`/schemas${paidFeedPath({ id: feed.id })}/data`)
  return { ...schema, properties: { ...properties, data: { ...properties.data, $id } } }
}

/** `/providers/:handle/manifest` → `/providers/{handle}/manifest`. */
export function openApiPath(pattern: string) {
  return pattern.replace(/:(\w+)\??/g, '{$1}')
}

function pathParameters(route: RouteJSON) {
  return [...route.pattern.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
}

/** A validator's JSON Schema, from VineJS itself. */
function schemaOf(validator: VineValidator<any, any>): Json {
  return validator.toJSONSchema() as Json
}

function queryParameters(validator: VineValidator<any, any> | undefined) {
  if (!validator) return []
  const schema = schemaOf(validator)
  const properties = (schema.properties ?? {}) as Record<string, Json>
  const required = new Set((schema.required ?? []) as string[])
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }))
}

function requiresSession(route: RouteJSON) {
  return [...route.middleware.all()].some((entry) => 'name' in entry && entry.name === 'auth')
}

/** `providers.owned.feeds.store` → "Providers owned feeds store". */
function summaryOf(route: RouteJSON) {
  const words = (route.name ?? route.pattern).replace(/[._-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function tagOf(route: RouteJSON) {
  return route.pattern.split('/')[1] || 'service'
}

/** A route's operation, from what the router and its declared validators say. */
function routeOperation(route: RouteJSON): Json {
  const inputs = routeInputs(route)
  const session = requiresSession(route)
  const parameters = [...pathParameters(route), ...queryParameters(inputs.query)]
  return {
    operationId: route.name ?? `${route.methods[0]} ${route.pattern}`,
    summary: summaryOf(route),
    tags: [tagOf(route)],
    ...(parameters.length ? { parameters } : {}),
    ...(inputs.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(inputs.body) } },
          },
        }
      : {}),
    security: session ? [{ bearer: [] }] : [],
    responses: {
      200: { description: 'Success' },
      ...(session ? { 401: errorResponse } : {}),
      ...(inputs.body || inputs.query ? { 422: errorResponse } : {}),
      default: errorResponse,
    },
  }
}

/** A paid feed call: the feed's query, its answer, and x402's 402 / 202 and headers. */
function paidOperation(
  route: RouteJSON,
  query: { name: string }[],
  output: { schema: Json; example: unknown } | null
): Json {
  return {
    operationId: route.name,
    tags: ['feeds'],
    parameters: [
      ...pathParameters(route),
      ...query,
      { $ref: '#/components/parameters/payment-signature' },
    ],
    responses: {
      200: {
        description: 'The paid answer',
        headers: { 'payment-response': { $ref: '#/components/headers/payment-response' } },
        content: {
          'application/json': output
            ? {
                schema: output.schema,
                ...(output.example === null ? {} : { example: output.example }),
              }
            : { schema: { type: 'object' } },
        },
      },
      202: { $ref: '#/components/responses/SettlementPending' },
      402: { $ref: '#/components/responses/PaymentRequired' },
      422: errorResponse,
      default: errorResponse,
    },
  }
}
