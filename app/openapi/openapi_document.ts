import { inject } from '@adonisjs/core'
import router from '@adonisjs/core/services/router'
import type { RouteJSON } from '@adonisjs/core/types/http'
import type { VineValidator } from '@vinejs/vine'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { publicUrl } from '#core/public_url'
import { BUILTIN_FEEDS, type BuiltinFeedDefinition } from '#feeds/builtin/catalog'
import { feedDeclaration } from '#feeds/feed_declaration'
import { PAID_FEED_ROUTES, paidFeedPath } from '#feeds/feed_paths'
import { formatStx, type Microstx } from '#ledger/money'
import { MAX_PRICE, MIN_PRICE } from '#provider_accounts/rules'
import { apiRoutes } from '#openapi/api_routes'
import { type RouteInputs, routeInputs } from '#openapi/route_inputs'
import { COMPONENTS, PUSH_SIGNATURE_PARAMETERS } from '#openapi/x402_components'

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

/**
 * The URL of a named route without parameters, from the router's URL
 * builder. Its names are typed only by the route types `node ace serve`
 * generates (.adonisjs, not checked in), hence the plain signature.
 */
function urlFor(name: string) {
  return (router.urlBuilder as unknown as { urlFor(name: string): string }).urlFor(name)
}

/** Where the price of each provider feed is read: the registry of provider feeds and the discovery API. */
function providerPriceSources() {
  return [urlFor('registry.provider_feeds'), urlFor('facilitator.discovery.resources')]
}

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
 *
 * A singleton (providers/openapi_provider.ts): `json` is built once, on
 * first use — after boot, when the router is committed and can no longer
 * change — and the same object is served from then on.
 */
@inject()
export class OpenApiDocument {
  #json?: OpenApiDocumentJson

  constructor(
    private wallet: PlatformWallet,
    private chain: ChainConfig
  ) {}

  /** The document of every API route of the committed router. */
  get json(): OpenApiDocumentJson {
    this.#json ??= this.build(apiRoutes())
    return this.#json
  }

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
            const path = paidFeedPath({ id: feed.id })
            add(path, verb, this.#builtinFeed(route, path, feed))
          }
        } else if (route.name === PAID_FEED_ROUTES.provider.name) {
          const path = openApiPath(route.pattern)
          add(path, verb, this.#providerFeed(route, path))
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
        'x-guidance': `List the feeds with GET ${urlFor('registry.feeds')} (built-in) and GET ${urlFor('registry.provider_feeds')} (providers'), or all of them as x402 resources with GET ${urlFor('facilitator.discovery.resources')}. Call a feed with GET /feeds/<id> (built-in) or /feeds/p/<handle>/<slug> (a provider feed): the 402 says what to pay (x402 v2, exact scheme, STX); send the signed transfer in the payment-signature header and get the data with a payment-response header. A guide for agents: GET ${urlFor('llms_txt')}.`,
      },
      servers: [{ url: publicUrl() }],
      paths,
      components: COMPONENTS,
    }
  }

  #builtinFeed(route: RouteJSON, path: string, feed: BuiltinFeedDefinition): Json {
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
      ...paidOperation(route, path, declaration.query, output),
      'operationId': `${route.name}.${feed.id}`,
      'summary': feed.displayName,
      'description': `${feed.description}. ${formatStx(price)} STX per call; updated every ${feed.updateFrequency}.`,
      'x-payment-info': this.#paymentInfo(price),
    }
  }

  #providerFeed(route: RouteJSON, path: string): Json {
    const sources = providerPriceSources()
    const where = sources.join(' or ')
    return {
      ...paidOperation(route, path, [], null),
      'summary': "A provider's feed",
      'description': `A feed a provider sells. The price is per feed: read it in ${where} (each feed's price), or in the 402's accepts[0].amount (µSTX).`,
      'x-payment-info': {
        ...this.#paymentInfo(null),
        'description': `The price is per feed: read it in ${where}.`,
        'x-price-sources': sources,
      },
    }
  }

  /**
   * `x-payment-info` as x402scan's parser reads it (@agentcash/discovery
   * 1.7.5, the version x402scan's apps/scan/package.json pins:
   * src/core/payment-info.ts's PaymentInfoSchema, documented in x402scan's
   * docs/DISCOVERY.md): `price` is `{mode: "fixed", currency, amount}` or
   * `{mode: "dynamic", currency, min, max}` with decimal amounts and a
   * three-letter currency, `protocols` is `[{x402: {…}}]`. A provider feed's
   * price is only known per feed, so the route is `dynamic` between the
   * lowest and highest price a provider may set
   * (app/provider_accounts/rules.ts). The x402 entry holds what the 402
   * asks: scheme, network, asset, payTo and, when fixed, the amount in µSTX.
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
          ? {
              mode: 'dynamic',
              currency: 'STX',
              min: formatStx(MIN_PRICE),
              max: formatStx(MAX_PRICE),
            }
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

/** The parameters of a documented path: its `{…}` placeholders. */
function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
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

const SUCCESS = { 200: 'Success', 201: 'Created', 202: 'Accepted', 204: 'No content' }

function requestBodyOf(body: RouteInputs['body']) {
  if (!body) return {}
  const schema =
    body === 'json' ? { description: 'Any JSON document, sent as signed' } : schemaOf(body)
  return { requestBody: { required: true, content: { 'application/json': { schema } } } }
}

function securityOf(route: RouteJSON, inputs: RouteInputs) {
  if (inputs.signature === 'push') return [{ pushSignature: [] }]
  return requiresSession(route) ? [{ bearer: [] }] : []
}

/** A route's operation, from what the router and its `.accepts()` declaration say. */
function routeOperation(route: RouteJSON): Json {
  const inputs = routeInputs(route)
  const security = securityOf(route, inputs)
  const status = inputs.status ?? 200
  const parameters = [
    ...pathParameters(openApiPath(route.pattern)),
    ...queryParameters(inputs.query),
    ...(inputs.signature === 'push' ? PUSH_SIGNATURE_PARAMETERS : []),
  ]
  return {
    operationId: route.name ?? `${route.methods[0]} ${route.pattern}`,
    summary: summaryOf(route),
    tags: [tagOf(route)],
    ...(parameters.length ? { parameters } : {}),
    ...requestBodyOf(inputs.body),
    security,
    responses: {
      [status]: { description: SUCCESS[status] },
      ...(security.length ? { 401: errorResponse } : {}),
      ...((inputs.body && inputs.body !== 'json') || inputs.query ? { 422: errorResponse } : {}),
      default: errorResponse,
    },
  }
}

/** A paid feed call: the feed's query, its answer, and x402's 402 / 202 and headers. */
function paidOperation(
  route: RouteJSON,
  path: string,
  query: { name: string }[],
  output: { schema: Json; example: unknown } | null
): Json {
  return {
    operationId: route.name,
    tags: ['feeds'],
    parameters: [
      ...pathParameters(path),
      ...query,
      { $ref: '#/components/parameters/payment-signature' },
      { $ref: '#/components/parameters/credit-token' },
      { $ref: '#/components/parameters/payment-identifier' },
    ],
    responses: {
      200: {
        description: 'The paid answer',
        headers: {
          'payment-response': { $ref: '#/components/headers/payment-response' },
          'credit-balance': { $ref: '#/components/headers/credit-balance' },
        },
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
