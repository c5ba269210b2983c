import { glob } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import type { RouteJSON } from '@adonisjs/core/types/http'
import { Validator } from '@seriousme/openapi-schema-validator'
import { ChainConfig } from '#chain/define_config'
import { PlatformWallet } from '#chain/platform_wallet'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { MAX_PRICE, MIN_PRICE } from '#provider_accounts/rules'
import { formatStx, type Microstx } from '#ledger/money'
import { OpenApiDocument } from '#openapi/openapi_document'
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

/** The source of a route's controller action; null for an inline handler. */
async function actionSource(route: RouteJSON) {
  const handler = route.handler
  if (typeof handler === 'function' || !('reference' in handler)) return null
  // Every controller route imports its controller lazily (app/*/routes.ts).
  const [lazyController, method] = handler.reference as unknown as [LazyController, string]
  const { default: Controller } = await lazyController()
  return String(Controller.prototype[method])
}

/** Each VineJS validator of app/ (its validator files), by its exported name. */
async function validatorNames() {
  const names = new Map<unknown, string>()
  for await (const file of glob(['**/*validator*.ts', '**/validators/*.ts'], {
    cwd: app.makePath('app'),
  })) {
    const module = await import(pathToFileURL(app.makePath('app', file)).href)
    for (const [name, value] of Object.entries(module)) names.set(value, name)
  }
  return names
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

  test('every controller action that validates its input names the same validator on its route', async ({
    assert,
  }) => {
    const names = await validatorNames()
    const mismatched: string[] = []
    for (const route of apiRoutesOfRouter()) {
      const source = await actionSource(route)
      const used = source && /validateUsing\((\w+)/.exec(source)?.[1]
      if (!used) continue
      const inputs = routeInputs(route)
      const declared = source.includes('request.qs()') ? inputs.query : inputs.body
      const name = typeof declared === 'object' ? names.get(declared) : declared
      if (name !== used) mismatched.push(`${route.name}: uses ${used}, declares ${name}`)
    }
    assert.deepEqual(mismatched, [])
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

    // x402scan's parser (@agentcash/discovery 1.7.5, src/core/payment-info.ts):
    // a price known only per feed is `dynamic`, with the bounds agents budget by.
    assert.deepEqual(info.price, {
      mode: 'dynamic',
      currency: 'STX',
      min: formatStx(MIN_PRICE),
      max: formatStx(MAX_PRICE),
    })
    // Where provider feeds are listed with their prices; /registry/feeds lists the built-in ones only.
    assert.deepEqual(info['x-price-sources'], [
      '/registry/provider-feeds',
      '/facilitator/discovery/resources',
    ])
    for (const source of info['x-price-sources']) {
      const response = await client.get(source)
      response.assertStatus(200)
    }
    assert.include(info.description, 'per feed')
    assert.include(document.info['x-guidance'], '/registry/provider-feeds')
    assert.include(document.info['x-guidance'], '/llms.txt')
    assert.equal(operation.responses[402].$ref, '#/components/responses/PaymentRequired')
  })

  test("declares as path parameters exactly the placeholders of each operation's path", async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const mismatched: string[] = []
    for (const [path, operations] of Object.entries(document.paths)) {
      const placeholders = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name)
      for (const [method, operation] of Object.entries(operations)) {
        const declared = ((operation.parameters ?? []) as Operation[])
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name)
        if (declared.join() !== placeholders.join()) mismatched.push(`${method} ${path}`)
      }
    }
    assert.deepEqual(mismatched, [])
  })

  test('the webhook push is described as signed, with its body, headers and 202', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const ingest = document.paths['/ingest/{handle}/{slug}'].post

    assert.deepEqual(ingest.security, [{ pushSignature: [] }])
    assert.deepInclude(document.components.securitySchemes.pushSignature, {
      type: 'apiKey',
      in: 'header',
      name: 'x-tollbooth-signature',
    })
    const headers = (ingest.parameters as Operation[])
      .filter((parameter) => parameter.$ref)
      .map((parameter) => document.components.parameters[parameter.$ref.split('/').pop()])
    assert.deepEqual(
      headers.map((header) => `${header.in}:${header.name}:${header.required}`),
      [
        'header:x-tollbooth-id:true',
        'header:x-tollbooth-timestamp:true',
        'header:x-tollbooth-provider:true',
        'header:x-tollbooth-signature:true',
      ]
    )
    assert.property(ingest.requestBody.content, 'application/json')
    assert.sameMembers(Object.keys(ingest.responses), ['202', '401', 'default'])
  })

  test('a create answers 201 and a delete 204, as their controllers do', async ({
    client,
    assert,
  }) => {
    const document = await fetchDocument(client)
    const feeds = document.paths['/providers/id/{id}/feeds']
    const feed = document.paths['/providers/id/{id}/feeds/{slug}']

    assert.property(feeds.post.responses, '201')
    assert.notProperty(feeds.post.responses, '200')
    assert.property(feed.delete.responses, '204')
    assert.notProperty(feed.delete.responses, '200')
    assert.property(feed.get.responses, '200')
  })

  test('each controller action that answers another success status declares it on its route', async ({
    assert,
  }) => {
    const undeclared: string[] = []
    for (const route of apiRoutesOfRouter()) {
      const source = await actionSource(route)
      if (source === null) continue
      const answered = source.includes('noContent()')
        ? 204
        : Number(/response\.status\((20\d)\)/.exec(source)?.[1] ?? 200)
      if ((routeInputs(route).status ?? 200) !== answered) {
        undeclared.push(`${route.name}: answers ${answered}`)
      }
    }
    assert.deepEqual(undeclared, [])
  })

  test('is built once, after boot: every request serves the same document', async ({
    client,
    assert,
  }) => {
    const document = await app.container.make(OpenApiDocument)
    const built = document.json
    const build = OpenApiDocument.prototype.build
    let builds = 0
    OpenApiDocument.prototype.build = function (this: OpenApiDocument, routes: RouteJSON[]) {
      builds++
      return build.call(this, routes)
    }
    try {
      await fetchDocument(client)
      await fetchDocument(client)
      const page = await client.get('/docs/api')
      page.assertStatus(200)
    } finally {
      OpenApiDocument.prototype.build = build
    }

    assert.equal(builds, 0)
    const served = await app.container.make(OpenApiDocument)
    assert.strictEqual(served.json, built)
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
    assert.include(html, 'The price is per feed: read it in /registry/provider-feeds')
    assert.notInclude(html, '/market/leaderboard</code>')
  })

  test('shows each summary with its description, and no Edge template code', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/docs/api')
    const html = response.text()
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'))
    const text = main.replace(/\s+/g, ' ')

    assert.include(main, '/feeds/whale-alerts')
    for (const leftover of ['@if(', '@end', '{{', '}}']) assert.notInclude(main, leftover)
    const feed = BUILTIN_FEEDS.find(({ id }) => id === 'whale-alerts')!
    assert.include(text, `<p> ${feed.displayName} — ${feed.description}.`)
    assert.include(text, '<p> Health </p>')
  })

  test('gives every element a unique id', async ({ client, assert }) => {
    const response = await client.get('/docs/api')
    const html = response.text()
    const ids = [...html.matchAll(/\sid="([^"]*)"/g)].map(([, id]) => id)

    assert.isAbove(ids.length, 50)
    assert.deepEqual(
      ids.filter((id, index) => ids.indexOf(id) !== index),
      []
    )
    assert.include(ids, 'tag-health')
    assert.include(ids, 'op-health')
  })
})
