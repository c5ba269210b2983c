import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { ApiClient } from '@japa/api-client'
import sources from '#feeds/services/main'
import Feed from '#models/feed'
import { isPublicAddress } from '#outbound/address_policy'
import { OutboundConfig } from '#outbound/define_config'
import { OutboundClient, type OutboundClientOptions } from '#outbound/outbound_client'
import type { Resolver } from '#outbound/resolver'
import { changeConfig } from '#tests/support/config'
import { swapOutboundClient } from '#tests/support/outbound'
import { newOwner, postRegistration, urlMirrorRegistration } from '#tests/support/providers'
import { Clock } from '#core/clock'
import { inGlobalTransaction } from '#tests/support/database'

const outboundConfig = await app.container.make(OutboundConfig)

/** What the injected DNS answers; any other name does not resolve. */
const DNS: Record<string, string[]> = {
  'localhost': ['127.0.0.1', '::1'],
  'internal.example': ['10.0.0.5'],
  'metadata.example': ['169.254.169.254'],
  'cgnat.example': ['100.64.0.1'],
  'v6-loopback.example': ['::1'],
  'v6-unique-local.example': ['fd00::5'],
  'v6-link-local.example': ['fe80::1'],
  'v4-mapped.example': ['::ffff:127.0.0.1'],
  'half-public.example': ['93.184.216.34', '10.0.0.5'],
}

/** Hosts a provider could name that reach our own network, as written in its URL. */
const PRIVATE_HOSTS = [
  '127.0.0.1',
  '127.1.2.3',
  '0.0.0.0',
  '10.0.0.5',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '[::1]',
  '[::]',
  '[fc00::1]',
  '[fd12:3456::1]',
  '[fe80::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::ffff:a9fe:a9fe]',
  '[64:ff9b::7f00:1]',
  '2130706433',
  '0177.0.0.1',
  '0x7f.1',
  '0x7f000001',
  '127.1',
  '0xa9fea9fe',
  ...Object.keys(DNS),
]

const dns: Resolver = async (hostname) => {
  const answers = DNS[hostname]
  if (!answers) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

/** Production's rules (config/outbound.ts in production): https on 443 to public addresses. */
const PRODUCTION_RULES = { allowPrivateTargets: false, httpsOnly: true, allowedPorts: [443] }

/** Swaps the app's outbound client and URL rules until restored. */
function useOutbound(rules: Partial<OutboundConfig>, client: Partial<OutboundClientOptions>) {
  const restoreRules = changeConfig(outboundConfig, rules)
  const restore = swapOutboundClient(
    new OutboundClient({ ...outboundConfig, timeoutMs: 1_000, clock: new Clock(), ...client })
  )
  return async () => {
    await restore()
    restoreRules()
  }
}

type Outcome = 'refused_target' | string

/**
 * The five places a provider-controlled URL is fetched, each driven the way
 * a provider drives it; each answers how the fetch ended.
 */
const PLACES: Record<string, (client: ApiClient, url: URL) => Promise<Outcome>> = {
  async 'the Partner Bridge handshake test'(client, url) {
    const { token, providerId } = await registered(client, partnerAt(url))
    const answer = await client.post(`/providers/id/${providerId}/hmac/test`).bearerToken(token)
    return answer.body().result
  },
  async 'a paid Partner Bridge call'(client, url) {
    await registered(client, partnerAt(url))
    const feed = await Feed.findByOrFail('slug', 'btc-price')
    const driver = await sources.use('partner_bridge')
    return failureKind(driver.fetch(feed, { query: {} }))
  },
  async 'the manifest check of the website'(client, url) {
    const handle = `site-${Math.random().toString(36).slice(2, 10)}`
    await registered(client, { handle, website: url.origin })
    const report = await client.get(`/providers/${handle}/manifest`)
    const present = report
      .body()
      .checks.find((check: { name: string }) => check.name === 'manifest_present')
    return /(is|resolves to) (a|an|the) [^(]*address/.test(present.detail)
      ? 'refused_target'
      : present.detail
  },
  async 'a URL mirror poll'(client, url) {
    await registered(client, urlMirrorRegistration(url.href, 'mirrored'))
    const feed = await Feed.findByOrFail('slug', 'mirrored')
    const driver = await sources.use('codehost_raw')
    return failureKind(driver.poll!(feed))
  },
  async 'the mirror source test'(client, url) {
    const { token, providerId } = await registered(
      client,
      urlMirrorRegistration(url.href, 'tested')
    )
    const answer = await client
      .post(`/providers/id/${providerId}/feeds/tested/source/test`)
      .bearerToken(token)
    return answer.body().result
  },
}

/** A Partner Bridge provider whose feed btc-price is served at `url`. */
function partnerAt(url: URL) {
  return {
    partner_endpoint: url.origin,
    feed: { slug: 'btc-price', display_name: 'BTC', price_stx: '0.005', source_path: url.pathname },
  }
}

async function registered(client: ApiClient, overrides: Record<string, unknown>) {
  const owner = await newOwner(client)
  const response = await postRegistration(client, owner.token, {
    handle: `p-${Math.random().toString(36).slice(2, 10)}`,
    website: undefined,
    partner_endpoint: 'https://partner.example',
    ...overrides,
  })
  if (response.status() !== 201) throw new Error(`registration: ${response.text()}`)
  return { token: owner.token, providerId: response.body().provider.id as string }
}

async function failureKind(call: Promise<unknown>): Promise<Outcome> {
  try {
    await call
    return 'fetched'
  } catch (error) {
    return String((error as { kind?: unknown }).kind ?? error)
  }
}

const attacks = Object.keys(PLACES).flatMap((place) =>
  PRIVATE_HOSTS.map((host) => ({ place, host }))
)

test.group('Attacks | SSRF under the production address rules', (group) => {
  group.each.setup(() => inGlobalTransaction())
  group.each.setup(() => useOutbound(PRODUCTION_RULES, { resolve: dns }))

  test('{place} refuses https://{host}/')
    .with(attacks)
    .run(async ({ client, assert }, { place, host }) => {
      const outcome = await PLACES[place](client, new URL(`https://${host}/v1/prices`))
      assert.equal(outcome, 'refused_target')
    })

  test('plain http, another port and credentials are refused when the URL is given', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    for (const endpoint of [
      'http://partner.example',
      'https://partner.example:8443',
      'https://user:pass@partner.example',
      'file:///etc/passwd',
      'gopher://partner.example',
    ]) {
      const response = await postRegistration(client, owner.token, { partner_endpoint: endpoint })
      response.assertStatus(422)
      assert.equal(response.body().error.code, 'invalid_partner_endpoint', endpoint)
    }
  })
})

/**
 * Redirects and DNS rebinding need a server to answer. It runs on 127.0.0.1
 * and stands for a public host: that one address counts as public and its
 * scheme and port are allowed (a test cannot serve TLS on 443); every other
 * address is judged by production's policy.
 */
test.group('Attacks | SSRF through redirects and DNS rebinding', (group) => {
  let server: { url: URL; hits: string[]; close(): Promise<void> }
  let answers: string[][]
  let asked: number
  let redirectTo: (request: IncomingMessage) => string | null

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    redirectTo = () => null
    server = await startServer((request, response) => {
      const location = redirectTo(request)
      if (location) {
        response.writeHead(302, { location })
        return response.end()
      }
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{"price":1}')
    })
    asked = 0
    answers = []
    const rebinding: Resolver = async (hostname) => {
      if (hostname !== 'rebind.example') return dns(hostname)
      const next = answers[Math.min(asked++, answers.length - 1)]
      return next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    }
    const restore = useOutbound(
      { allowPrivateTargets: true, httpsOnly: false, allowedPorts: undefined },
      {
        resolve: rebinding,
        isAllowedAddress: (address) => address === '127.0.0.1' || isPublicAddress(address),
      }
    )
    return async () => {
      await restore()
      await server.close()
    }
  })

  const redirectTargets = [
    'http://2130706434/',
    'http://0177.0.0.2/',
    'http://0x7f.2/',
    'http://10.0.0.5/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://[::1]/',
    'http://[::ffff:7f00:2]/',
    'http://[fe80::1]/',
    'http://internal.example/',
    'http://v4-mapped.example/',
  ]
  const chains = Object.keys(PLACES).flatMap((place) =>
    redirectTargets.map((target) => ({ place, target }))
  )

  test('{place} follows no redirect chain into {target}')
    .with(chains)
    .run(async ({ client, assert }, { place, target }) => {
      // Two same-origin hops first, so the private target is the third.
      redirectTo = (request) => {
        const hop = Number(/hop=(\d)/.exec(request.url ?? '')?.[1] ?? 0)
        return hop < 2 ? `/v1/prices?hop=${hop + 1}` : target
      }
      const url = new URL(`/v1/prices`, server.url)
      const outcome = await PLACES[place](client, url)
      assert.oneOf(outcome, ['refused_target', 'redirect_refused'], `${place} → ${target}`)
    })

  test('{$self}: more than 3 redirects are not followed')
    .with(Object.keys(PLACES))
    .run(async ({ client, assert }, place) => {
      redirectTo = (request) => {
        const hop = Number(/hop=(\d+)/.exec(request.url ?? '')?.[1] ?? 0)
        return `/v1/prices?hop=${hop + 1}`
      }
      const outcome = await PLACES[place](client, new URL('/v1/prices', server.url))
      assert.notEqual(outcome, 'ok')
      assert.notEqual(outcome, 'fetched')
      const hops = server.hits.map((hit) => Number(/hop=(\d+)/.exec(hit)?.[1] ?? 0))
      assert.equal(Math.max(...hops), 3)
    })

  test('{$self}: a name answering public then private is connected to as checked, never again')
    .with(Object.keys(PLACES))
    .run(async ({ client, assert }, place) => {
      answers = [['127.0.0.1'], ['10.0.0.5']]
      const url = new URL(`http://rebind.example:${server.url.port}/v1/prices`)

      const outcome = await PLACES[place](client, url)

      // One look-up per fetch, and the connection goes to the address it answered: the
      // first fetch reached the server once; a second fetch (a mirror polls at
      // registration, then again) resolved anew and was refused.
      assert.equal(server.hits.length, 1)
      assert.equal(outcome === 'refused_target', asked > 1, `${outcome} after ${asked} look-ups`)
    })

  test('{$self}: a rebinding name is refused at a same-host redirect hop')
    .with(Object.keys(PLACES))
    .run(async ({ client, assert }, place) => {
      answers = [['127.0.0.1'], ['169.254.169.254']]
      redirectTo = (request) => (request.url?.includes('again') ? null : '/v1/prices?again')
      const url = new URL(`http://rebind.example:${server.url.port}/v1/prices`)

      const outcome = await PLACES[place](client, url)

      assert.equal(outcome, 'refused_target')
      assert.isAtMost(server.hits.length, 1)
    })
})

async function startServer(handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const hits: string[] = []
  const server = createServer((request, response) => {
    hits.push(request.url ?? '')
    handler(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
