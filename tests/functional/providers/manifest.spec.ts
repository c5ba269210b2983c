import type { IncomingMessage, ServerResponse } from 'node:http'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { ManifestReport } from '#provider_accounts/manifest/manifest_verifier'
import { ManifestReportCache } from '#provider_accounts/manifest/manifest_report_cache'
import type { ApiClient } from '@japa/api-client'
import { DateTime } from 'luxon'
import { AppConfig } from '#core/app_config'
import { ProvidersConfig } from '#provider_accounts/define_config'
import { changeConfig } from '#tests/support/config'
import Provider from '#models/provider'
import { type ManualClock, useManualClock } from '#tests/support/clock'
import { createFeed } from '#tests/support/feeds'
import { mirrorRegistration, newOwner, registerProvider } from '#tests/support/providers'
import {
  type LocalSite,
  sendJson,
  startLocalSite,
  useLocalSiteClient,
  WWW_SITE_HOST,
} from '#tests/support/local_site'
import { inGlobalTransaction } from '#tests/support/database'

const appConfig = await app.container.make(AppConfig)
const providersConfig = await app.container.make(ProvidersConfig)

const MANIFEST_PATH = '/.well-known/tollbooth-feeds.json'
const OWNER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5'
const HANDLE = 'acme-data'

interface Check {
  name: string
  result: 'pass' | 'fail' | 'not_run'
  ok: boolean
  detail: string
}

async function createProvider(website: string | null, handle = HANDLE) {
  const provider = await Provider.create({
    handle,
    displayName: 'Acme Data',
    integrationMode: 'partner_bridge',
    partnerEndpoint: 'http://partner.test:8080',
    hmacKeyEncrypted: 'encrypted-hmac-key',
    ownerWallet: OWNER,
    custodialAddress: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
    custodialKeyEncrypted: 'encrypted-custodial-key',
    status: 'active',
    pendingRevenueMicrostx: 0n,
    lifetimeEarnedMicrostx: 0n,
    totalWithdrawnMicrostx: 0n,
    website,
  })
  await createFeed({
    providerId: provider.id,
    slug: 'prices',
    sourceType: 'partner_bridge',
    sourceSettings: { source_path: '/v1/prices' },
  })
  await createFeed({
    providerId: provider.id,
    slug: 'volumes',
    sourceType: 'partner_bridge',
    sourceSettings: { source_path: '/v1/volumes' },
  })
  return provider
}

/** A manifest that passes every check for HANDLE on this marketplace. */
function manifest(overrides: Record<string, unknown> = {}) {
  const { publicUrl } = appConfig
  return {
    version: '1',
    provider: {
      name: 'Acme Data',
      handle: HANDLE,
      description: 'Market data',
      website: 'http://example.test',
      api: 'http://partner.test:8080',
      twitter_handle: 'acmedata',
      contact_email: 'ops@example.test',
    },
    partnerships: [
      {
        marketplace: 'Tollbooth',
        marketplace_url: publicUrl,
        marketplace_handle: HANDLE,
        marketplace_verification_url: `${publicUrl}/providers/${HANDLE}/manifest`,
        integration_mode: 'partner_bridge',
        partner_endpoint: 'http://partner.test:8080',
      },
    ],
    feeds: [
      {
        slug: 'prices',
        name: 'Prices',
        category: 'market',
        path: '/v1/prices',
        method: 'GET',
        suggested_price_stx: 0.005,
      },
      {
        slug: 'volumes',
        name: 'Volumes',
        category: 'market',
        path: '/v1/volumes',
        method: 'GET',
        suggested_price_stx: 0.005,
      },
    ],
    supported_payments: ['x402-stacks'],
    ...overrides,
  }
}

/** A site serving `body` as its manifest on every host. */
function serving(body: unknown) {
  return (request: IncomingMessage, response: ServerResponse) => {
    if (request.url !== MANIFEST_PATH) return sendJson(response, { error: 'not found' }, 404)
    sendJson(response, body)
  }
}

async function reportOf(client: ApiClient, handle = HANDLE) {
  const response = await client.get(`/providers/${handle}/manifest`)
  response.assertStatus(200)
  return response.body() as ManifestReport
}

function checkOf(report: { checks: Check[] }, name: string) {
  const check = report.checks.find((candidate) => candidate.name === name)
  if (!check) throw new Error(`no ${name} check in the report`)
  return check
}

test.group('Provider manifest verification', (group) => {
  let clock: ManualClock
  let site: LocalSite | undefined
  const manifestConfig = providersConfig.manifest

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const manual = await useManualClock()
    const outbound = useLocalSiteClient(manual.clock)
    clock = manual.clock
    const reports = new ManifestReportCache(clock, {
      ttlMs: manifestConfig.cacheTtlMs,
      maxEntries: manifestConfig.cacheMaxEntries,
    })
    app.container.swap(ManifestReportCache, () => reports)
    return async () => {
      await site?.close()
      site = undefined
      app.container.restore(ManifestReportCache)
      await outbound.restore()
      manual.restore()
    }
  })

  test('a correct manifest at the registered host verifies the provider', async ({
    client,
    assert,
  }) => {
    site = await startLocalSite(serving(manifest()))
    await createProvider(site.origin)

    const report = await reportOf(client)

    const manifestUrl = `${site.origin}${MANIFEST_PATH}`
    assert.deepEqual(report.independence_attestation, {
      well_known_manifest_present: true,
      final_url: manifestUrl,
      redirects: [],
      http_status: 200,
    })
    assert.containsSubset(report, {
      handle: HANDLE,
      website: site.origin,
      manifest_url: manifestUrl,
      checked_at: new Date(clock.now()).toISOString(),
      verified: true,
    })
    assert.deepEqual(
      report.checks.map((check) => [check.name, check.result, check.ok]),
      [
        ['manifest_present', 'pass', true],
        ['version', 'pass', true],
        ['provider_handle', 'pass', true],
        ['partnership', 'pass', true],
        ['feed_paths', 'pass', true],
      ]
    )
    assert.include(checkOf(report, 'manifest_present').detail, manifestUrl)
    assert.deepEqual(site.requests, [{ host: `example.test:${site.port}`, url: MANIFEST_PATH }])
  })

  test('a redirect from the apex to www leaves the manifest on another host: not present', async ({
    client,
    assert,
  }) => {
    site = await startLocalSite((request, response) => {
      const host = request.headers.host ?? ''
      if (!host.startsWith(WWW_SITE_HOST)) {
        response.writeHead(301, { location: `http://www.${host}${request.url}` })
        return response.end()
      }
      serving(manifest())(request, response)
    })
    await createProvider(site.origin)

    const report = await reportOf(client)

    const wwwUrl = `${site.wwwOrigin}${MANIFEST_PATH}`
    assert.deepEqual(report.independence_attestation, {
      well_known_manifest_present: false,
      final_url: wwwUrl,
      redirects: [wwwUrl],
      http_status: 200,
    })
    const present = checkOf(report, 'manifest_present')
    assert.isFalse(present.ok)
    assert.include(present.detail, `example.test:${site.port}`)
    assert.include(present.detail, `another host, www.example.test:${site.port}`)
    assert.isFalse(report.verified)
  })

  test('a redirect within the registered host is followed', async ({ client, assert }) => {
    site = await startLocalSite((request, response) => {
      if (request.url === MANIFEST_PATH) {
        response.writeHead(302, { location: '/static/tollbooth-feeds.json' })
        return response.end()
      }
      sendJson(response, manifest())
    })
    await createProvider(site.origin)

    const report = await reportOf(client)

    assert.isTrue(report.independence_attestation.well_known_manifest_present)
    assert.deepEqual(report.independence_attestation.redirects, [
      `${site.origin}/static/tollbooth-feeds.json`,
    ])
    assert.isTrue(report.verified)
  })

  test('a missing file (404) is not present and the content checks have no manifest', async ({
    client,
    assert,
  }) => {
    site = await startLocalSite((_request, response) => sendJson(response, { error: 'no' }, 404))
    await createProvider(site.origin)

    const report = await reportOf(client)

    assert.isFalse(report.independence_attestation.well_known_manifest_present)
    assert.equal(report.independence_attestation.http_status, 404)
    assert.include(checkOf(report, 'manifest_present').detail, 'got HTTP 404')
    for (const name of ['version', 'provider_handle', 'partnership', 'feed_paths']) {
      assert.deepEqual(checkOf(report, name), {
        name,
        result: 'not_run',
        ok: false,
        detail: 'not run: no manifest to check',
      })
    }
    assert.isFalse(report.verified)
  })

  test('an HTML page answered with 200 is not a manifest', async ({ client, assert }) => {
    site = await startLocalSite((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<!doctype html><title>Acme</title>')
    })
    await createProvider(site.origin)

    const report = await reportOf(client)

    assert.isFalse(report.independence_attestation.well_known_manifest_present)
    assert.equal(report.independence_attestation.http_status, 200)
    const present = checkOf(report, 'manifest_present')
    assert.include(present.detail, 'not valid JSON')
    assert.include(present.detail, 'text/html')
    assert.equal(checkOf(report, 'version').result, 'not_run')
  })

  test('a JSON array is not a manifest object', async ({ client, assert }) => {
    site = await startLocalSite(serving([manifest()]))
    await createProvider(site.origin)

    const report = await reportOf(client)

    assert.isFalse(report.independence_attestation.well_known_manifest_present)
    assert.include(checkOf(report, 'manifest_present').detail, 'not an object (an array)')
  })

  test('a wrong version fails the version check only', async ({ client, assert }) => {
    site = await startLocalSite(serving(manifest({ version: 2 })))
    await createProvider(site.origin)

    const report = await reportOf(client)

    assert.isTrue(report.independence_attestation.well_known_manifest_present)
    assert.deepEqual(checkOf(report, 'version'), {
      name: 'version',
      result: 'fail',
      ok: false,
      detail: 'expected version "1", found 2',
    })
    assert.deepEqual(
      report.checks.filter((check) => !check.ok).map((check) => check.name),
      ['version']
    )
    assert.isFalse(report.verified)
  })

  test('another handle in provider fails the provider_handle check', async ({ client, assert }) => {
    const base = manifest()
    site = await startLocalSite(
      serving(manifest({ provider: { ...base.provider, handle: 'someone-else' } }))
    )
    await createProvider(site.origin)

    const report = await reportOf(client)

    assert.deepEqual(checkOf(report, 'provider_handle'), {
      name: 'provider_handle',
      result: 'fail',
      ok: false,
      detail: `expected provider.handle "${HANDLE}", found "someone-else"`,
    })
    assert.isFalse(report.verified)
  })

  test('no partnership naming this marketplace under our handle fails the partnership check', async ({
    client,
    assert,
  }) => {
    const [ours] = manifest().partnerships
    site = await startLocalSite(
      serving(
        manifest({
          partnerships: [
            {
              ...ours,
              marketplace: 'Other Market',
              marketplace_url: 'https://other-market.example',
            },
            { ...ours, marketplace_handle: 'not-us' },
          ],
        })
      )
    )
    await createProvider(site.origin)

    const report = await reportOf(client)

    const partnership = checkOf(report, 'partnership')
    assert.isFalse(partnership.ok)
    assert.include(partnership.detail, `marketplace_handle "${HANDLE}"`)
    assert.include(
      partnership.detail,
      `found: "Other Market" as "${HANDLE}", "Tollbooth" as "not-us"`
    )
    assert.isFalse(report.verified)
  })

  test('a partnership is recognised by our public URL whatever the marketplace name', async ({
    client,
    assert,
  }) => {
    const [ours] = manifest().partnerships
    site = await startLocalSite(
      serving(
        manifest({
          partnerships: [
            { ...ours, marketplace: 'TB', marketplace_url: `${ours.marketplace_url}/providers` },
          ],
        })
      )
    )
    await createProvider(site.origin)

    const report = await reportOf(client)

    assert.isTrue(checkOf(report, 'partnership').ok)
  })

  test('a feed path that is not a registered source path fails feed_paths', async ({
    client,
    assert,
  }) => {
    const base = manifest()
    site = await startLocalSite(
      serving(
        manifest({ feeds: [...base.feeds, { ...base.feeds[0], slug: 'x', path: '/v2/secret' }] })
      )
    )
    const provider = await createProvider(site.origin)
    await createFeed({
      providerId: provider.id,
      slug: 'gone',
      sourceType: 'partner_bridge',
      sourceSettings: { source_path: '/v2/secret' },
      deletedAt: DateTime.now(),
    })

    const report = await reportOf(client)

    const feedPaths = checkOf(report, 'feed_paths')
    assert.isFalse(feedPaths.ok)
    assert.include(feedPaths.detail, ': /v2/secret (registered: /v1/prices, /v1/volumes)')
    assert.isFalse(report.verified)
  })

  test('a manifest without feeds fails feed_paths', async ({ client, assert }) => {
    site = await startLocalSite(serving(manifest({ feeds: [] })))
    await createProvider(site.origin)

    const report = await reportOf(client)

    assert.deepEqual(checkOf(report, 'feed_paths'), {
      name: 'feed_paths',
      result: 'fail',
      ok: false,
      detail: 'the manifest lists no feeds',
    })
  })

  test('a site that never answers times out: not present, still HTTP 200', async ({
    client,
    assert,
    cleanup,
  }) => {
    cleanup(changeConfig(manifestConfig, { timeoutMs: 30_000 }))
    let asked!: () => void
    const arrived = new Promise<void>((resolve) => (asked = resolve))
    site = await startLocalSite(() => asked())
    await createProvider(site.origin)

    const pending = reportOf(client)
    await arrived
    clock.advance(30_000)
    const report = await pending

    assert.isFalse(report.independence_attestation.well_known_manifest_present)
    assert.isNull(report.independence_attestation.http_status)
    assert.equal(
      checkOf(report, 'manifest_present').detail,
      `could not fetch ${site.origin}${MANIFEST_PATH}: example.test:${site.port} did not answer within 30000 ms`
    )
  })

  test('an oversized manifest is not present', async ({ client, assert, cleanup }) => {
    cleanup(changeConfig(manifestConfig, { maxBytes: 1_024 }))
    site = await startLocalSite(serving(manifest({ padding: 'x'.repeat(2_000) })))
    await createProvider(site.origin)

    const report = await reportOf(client)

    assert.isFalse(report.independence_attestation.well_known_manifest_present)
    assert.equal(report.independence_attestation.http_status, 200)
    assert.include(checkOf(report, 'manifest_present').detail, 'more than 1024 bytes')
  })

  test('a provider without a website has no manifest', async ({ client, assert }) => {
    await createProvider(null)

    const report = await reportOf(client)

    assert.containsSubset(report, {
      website: null,
      manifest_url: null,
      independence_attestation: {
        well_known_manifest_present: false,
        final_url: null,
        redirects: [],
        http_status: null,
      },
      verified: false,
    })
    assert.deepEqual(checkOf(report, 'manifest_present'), {
      name: 'manifest_present',
      result: 'fail',
      ok: false,
      detail: 'no website registered',
    })
  })

  test('a report is reused within the TTL, then fetched again; a new website is checked at once', async ({
    client,
    assert,
  }) => {
    site = await startLocalSite(serving(manifest()))
    const provider = await createProvider(site.origin)

    const first = await reportOf(client)
    clock.advance(manifestConfig.cacheTtlMs - 1)
    const second = await reportOf(client)

    assert.lengthOf(site.requests, 1)
    assert.deepEqual(second, first)

    clock.advance(1)
    const third = await reportOf(client)

    assert.lengthOf(site.requests, 2)
    assert.equal(third.checked_at, new Date(clock.now()).toISOString())

    provider.website = site.wwwOrigin
    await provider.save()
    const moved = await reportOf(client)

    assert.lengthOf(site.requests, 3)
    assert.equal(moved.manifest_url, `${site.wwwOrigin}${MANIFEST_PATH}`)
    assert.isTrue(moved.independence_attestation.well_known_manifest_present)
  })

  test('concurrent requests for the same provider share one fetch', async ({ client, assert }) => {
    site = await startLocalSite((request, response) => {
      setTimeout(() => serving(manifest())(request, response), 100)
    })
    await createProvider(site.origin)

    const [a, b] = await Promise.all([reportOf(client), reportOf(client)])

    assert.lengthOf(site.requests, 1)
    assert.isTrue(a.verified)
    assert.deepEqual(b, a)
  })

  test('a Hosted Mirror provider serving its dashboard template at its website is verified', async ({
    client,
    assert,
  }) => {
    let served: unknown = null
    site = await startLocalSite((request, response) => serving(served)(request, response))
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token, {
      ...mirrorRegistration({ type: 'webhook_push' }, 'prices'),
      website: site.origin,
    })

    const template = await client
      .get(`/providers/id/${provider.id}/manifest/template`)
      .bearerToken(owner.token)
    template.assertStatus(200)
    const [partnership] = template.body().partnerships
    assert.equal(partnership.integration_mode, 'hosted_mirror')
    assert.notProperty(partnership, 'partner_endpoint')
    assert.containsSubset(template.body().feeds, [
      { slug: 'prices', name: 'Mirrored', path: '/feeds/p/mirror-co/prices', method: 'GET' },
    ])

    served = template.body()
    const report = await reportOf(client, 'mirror-co')

    assert.isTrue(report.verified, JSON.stringify(report.checks))
    assert.equal(
      checkOf(report, 'feed_paths').detail,
      "all 1 feed paths are marketplace paths of this provider's Hosted Mirror feeds"
    )
  })

  test('a Hosted Mirror manifest listing another path fails feed_paths and says which paths it wants', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    let served: unknown = null
    site = await startLocalSite((request, response) => serving(served)(request, response))
    const { provider } = await registerProvider(client, owner.token, {
      ...mirrorRegistration({ type: 'webhook_push' }, 'prices'),
      website: site.origin,
    })
    const template = await client
      .get(`/providers/id/${provider.id}/manifest/template`)
      .bearerToken(owner.token)
    served = { ...template.body(), feeds: [{ slug: 'prices', path: '/prices.json' }] }

    const report = await reportOf(client, 'mirror-co')

    assert.isFalse(report.verified)
    assert.deepEqual(
      report.checks.filter((check) => !check.ok).map((check) => check.name),
      ['feed_paths']
    )
    assert.equal(
      checkOf(report, 'feed_paths').detail,
      'not the marketplace path (/feeds/p/<handle>/<slug>) of a live Hosted Mirror feed of ' +
        'this provider: /prices.json (registered: /feeds/p/mirror-co/prices)'
    )
  })

  test("a Partner Bridge provider's template lists its source paths and verifies it; only its owner gets it", async ({
    client,
    assert,
  }) => {
    let served: unknown = null
    site = await startLocalSite((request, response) => serving(served)(request, response))
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token, { website: site.origin })
    const path = `/providers/id/${provider.id}/manifest/template`

    const template = await client.get(path).bearerToken(owner.token)
    const [partnership] = template.body().partnerships
    assert.containsSubset(partnership, {
      integration_mode: 'partner_bridge',
      partner_endpoint: 'http://127.0.0.1:9',
    })
    assert.deepEqual(
      template.body().feeds.map((feed: { path: string }) => feed.path),
      ['/v1/prices']
    )
    served = template.body()
    const report = await reportOf(client)
    assert.isTrue(report.verified, JSON.stringify(report.checks))

    const stranger = await newOwner(client)
    const refused = await client.get(path).bearerToken(stranger.token)
    refused.assertStatus(403)
    refused.assertBodyContains({ error: { code: 'not_owner' } })
  })

  test('the report is a page naming each check with its result and message, the JSON linked', async ({
    client,
    assert,
  }) => {
    site = await startLocalSite((_request, response) => sendJson(response, { error: 'no' }, 404))
    await createProvider(site.origin)

    const page = await client.get(`/market/providers/${HANDLE}/verification`)

    page.assertStatus(200)
    assert.match(String(page.header('content-type')), /^text\/html/)
    const text = page.text().replace(/\s+/g, ' ')
    assert.include(text, `<h1>@${HANDLE} is not verified</h1>`)
    assert.include(
      text,
      `<code>manifest_present</code> <strong>failed</strong>: expected HTTP 200 at ${site.origin}${MANIFEST_PATH}, got HTTP 404</li>`
    )
    for (const name of ['version', 'provider_handle', 'partnership', 'feed_paths']) {
      assert.include(text, `<code>${name}</code> <strong>not run</strong></li>`)
    }
    assert.include(text, `href="/providers/${HANDLE}/manifest">this report as JSON</a>`)

    // The profile's "full report" is this page.
    const profile = await client.get(`/market/providers/${HANDLE}`)
    assert.include(
      profile.text(),
      `href="/market/providers/${HANDLE}/verification">the full report`
    )

    const unknown = await client.get('/market/providers/nobody-here/verification')
    unknown.assertStatus(404)
  })

  test('an unknown handle is 404 provider_not_found', async ({ client }) => {
    const response = await client.get('/providers/nobody-here/manifest')

    response.assertStatus(404)
    response.assertBodyContains({ error: { code: 'provider_not_found' } })
  })
})
