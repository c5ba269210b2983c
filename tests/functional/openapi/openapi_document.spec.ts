import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import type { RouteJSON } from '@adonisjs/core/types/http'
import { Validator } from '@seriousme/openapi-schema-validator'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { formatStx, type Microstx } from '#ledger/money'
import { routeInputs } from '#openapi/route_inputs'

type Operation = Record<string, any>
type LazyController = () => Promise<{ default: { prototype: Record<string, unknown> } }>
type Paths = Record<string, Record<string, Operation>>

/**
 * The routes that are API: all but the pages, which app/web/routes.ts
 * names `web.*` (checked here apart from the middleware rule the document
 * applies, so a page wrongly counted as API, or the reverse, shows).
 */
function apiRoutesOfRouter(): RouteJSON[] {
  return Object.values(router.toJSON())
    .flat()
    .filter((route) => !route.name?.startsWith('web.'))
}

/** Whether a documented path is the route's pattern, or a value of it (`/feeds/whale-alerts`). */
function servesPattern(path: string, pattern: string) {
  const segments = pattern.split('/').map((segment) => (segment.startsWith(':') ? null : segment))
  const parts = path.split('/')
  return (
    parts.length === segments.length &&
    segments.every((segment, index) => segment === null || segment === parts[index])
  )
}

async function fetchDocument(client: any) {
  const response = await client.get('/openapi.json')
  response.assertStatus(200)
  return response.body() as { paths: Paths; [key: string]: any }
}

test.group('GET /openapi.json', () => {
  test('documents every API route of the router, and no page', async ({ client, assert }) => {
    const document = await fetchDocument(client)
    const documented = Object.entries(document.paths)
    const missing = apiRoutesOfRouter().flatMap((route) =>
      route.methods
        .filter((method) => method !== 'HEAD')
        .filter(
          (method) =>
            !documented.some(
              ([path, operations]) =>
                servesPattern(path, route.pattern) && method.toLowerCase() in operations
            )
        )
        .map((method) => `${method} ${route.pattern}`)
    )
    assert.deepEqual(missing, [])
    assert.isNotEmpty(apiRoutesOfRouter())

    const paths = Object.keys(document.paths)
    assert.notInclude(paths, '/')
    assert.isFalse(paths.some((path) => /^\/(market|dashboard|docs)(\/|$)/.test(path)))
  })

  test('validates as OpenAPI 3.1 with @seriousme/openapi-schema-validator', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const validator = new Validator()
    const result = await validator.validate(document)

    assert.deepEqual(result.errors ?? [], [])
    assert.isTrue(result.valid)
    assert.equal(validator.version, '3.1')
  })

  test("describes each route's input from the VineJS validators its controller uses", async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)

    const nonce = document.paths['/auth/nonce'].post
    assert.deepInclude(
      nonce.requestBody.content['application/json'].schema.required,
      'wallet_address'
    )
    const activity = document.paths['/activity'].get
    assert.includeMembers(
      activity.parameters.map((parameter: Operation) => `${parameter.in}:${parameter.name}`),
      ['query:limit', 'query:feed']
    )
    const withdrawal = document.paths['/providers/id/{id}/withdrawals/{withdrawal_id}'].get
    assert.deepEqual(
      withdrawal.parameters.map((parameter: Operation) => parameter.name),
      ['id', 'withdrawal_id']
    )
    assert.deepEqual(withdrawal.security, [{ bearer: [] }])
    assert.equal(withdrawal.responses[401].$ref, '#/components/responses/Error')
  })

  test('every controller action that validates its input names its validators on the route', async ({
    assert,
  }) => {
    const undeclared: string[] = []
    for (const route of apiRoutesOfRouter()) {
      const handler = route.handler
      if (typeof handler === 'function' || !('reference' in handler)) continue
      // Every controller route imports its controller lazily (app/*/routes.ts).
      const [lazyController, method] = handler.reference as unknown as [LazyController, string]
      const { default: Controller } = await lazyController()
      const source = String(Controller.prototype[method])
      if (!source.includes('validateUsing(')) continue
      const inputs = routeInputs(route)
      const readsQuery = source.includes('request.qs()')
      if (readsQuery ? !inputs.query : !inputs.body) undeclared.push(route.name ?? route.pattern)
    }
    assert.deepEqual(undeclared, [])
  })

  test('each built-in feed is a paid path with its price in x-payment-info and its 402', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const wallet = await app.container.make(PlatformWallet)
    const chain = await app.container.make(ChainConfig)

    for (const feed of BUILTIN_FEEDS) {
      const operation = document.paths[`/feeds/${feed.id}`]?.get
      assert.exists(operation, feed.id)
      assert.deepEqual(operation['x-payment-info'], {
        price: {
          mode: 'fixed',
          currency: 'STX',
          amount: formatStx(feed.priceMicrostx as Microstx),
        },
        protocols: [
          {
            x402: {
              scheme: 'exact',
              network: chain.network.caip2,
              asset: 'STX',
              payTo: wallet.address,
              amount: feed.priceMicrostx.toString(),
            },
          },
        ],
      })
      assert.equal(operation.responses[402].$ref, '#/components/responses/PaymentRequired')
    }
    const tokenIntel = document.paths['/feeds/token-intel'].get
    assert.includeMembers(
      tokenIntel.parameters.map((parameter: Operation) => parameter.name),
      ['address', 'chain']
    )
    assert.equal(tokenIntel.responses[200].content['application/json'].schema.required[0], 'data')
    assert.property(document.components.responses.PaymentRequired.headers, 'payment-required')
  })

  test('the provider-feed route says its price is per feed and where to read it', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const operation = document.paths['/feeds/p/{handle}/{slug}'].get
    const info = operation['x-payment-info']

    assert.deepEqual(info.price, { mode: 'dynamic', currency: 'STX' })
    assert.deepEqual(info['x-price-sources'], [
      '/registry/feeds',
      '/facilitator/discovery/resources',
    ])
    assert.include(info.description, 'per feed')
    assert.equal(operation.responses[402].$ref, '#/components/responses/PaymentRequired')
  })
})

test.group('GET /docs/api', () => {
  test('renders the operations of /openapi.json as a page, with the prices of the paid feeds', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/docs/api')

    response.assertStatus(200)
    assert.match(response.header('content-type') ?? '', /text\/html/)
    assert.include(response.header('content-security-policy') ?? '', "script-src 'self'")
    const html = response.text()
    assert.include(html, '/providers/id/{id}/feeds/{slug}/push-secret/rotate')
    assert.include(html, '/feeds/whale-alerts')
    assert.include(html, '0.005 STX per call')
    assert.include(html, 'The price is per feed: read it in /registry/feeds')
    assert.notInclude(html, '/market/leaderboard</code>')
  })
})
