import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import fc from 'fast-check'
import { ManifestReportCache } from '#provider_accounts/manifest/manifest_report_cache'
import { type AnswerServer, sourceAnswers, startAnswerServer } from '#tests/support/answer_server'
import { type ManualClock, useManualClock } from '#tests/support/clock'
import { assertDeclaredAnswer, bodyAround, fuzz, rawCall, useFuzzGroup } from '#tests/support/fuzz'
import { SITE_HOST, useLocalSiteClient } from '#tests/support/local_site'
import { newOwner, registerProvider } from '#tests/support/providers'
import { AppConfig } from '#core/app_config'
import { ProvidersConfig } from '#provider_accounts/define_config'

const appConfig = await app.container.make(AppConfig)
const providersConfig = await app.container.make(ProvidersConfig)

/** A manifest near the one that passes every check (docs/api.md, "Manifest"). */
function validManifest(website: string) {
  const { publicUrl } = appConfig
  return {
    version: '1',
    provider: { name: 'Acme Data', handle: 'acme-data', website, api: 'http://127.0.0.1:9' },
    partnerships: [
      {
        marketplace: 'Tollbooth',
        marketplace_url: publicUrl,
        marketplace_handle: 'acme-data',
        marketplace_verification_url: `${publicUrl}/providers/acme-data/manifest`,
        integration_mode: 'partner_bridge',
        partner_endpoint: 'http://127.0.0.1:9',
      },
    ],
    feeds: [{ slug: 'btc-price', name: 'BTC', path: '/v1/prices', method: 'GET' }],
    supported_payments: ['x402-stacks'],
  }
}

/**
 * The discovery manifest a provider's website serves, fuzzed (around a valid
 * one, and any answer at all): the public verification report is always a
 * 200 report of checks, never an error of ours.
 */
test.group('Fuzzing | provider manifests', (group) => {
  useFuzzGroup(group)
  let server: AnswerServer
  let clock: ManualClock
  group.each.setup(async () => {
    server = await startAnswerServer()
    const manual = await useManualClock()
    clock = manual.clock
    const outbound = useLocalSiteClient()
    const config = providersConfig.manifest
    const reports = new ManifestReportCache(manual.clock, {
      ttlMs: config.cacheTtlMs,
      maxEntries: config.cacheMaxEntries,
    })
    app.container.swap(ManifestReportCache, () => reports)
    return async () => {
      app.container.restore(ManifestReportCache)
      await outbound.restore()
      manual.restore()
      await server.close()
    }
  })

  test('GET /providers/:handle/manifest', async ({ client }) => {
    const website = `http://${SITE_HOST}:${new URL(server.url).port}`
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, { website })
    const answers = fc.oneof(
      sourceAnswers,
      bodyAround(validManifest(website)).map((body) => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(body),
        end: 'normal' as const,
      }))
    )

    await fuzz(answers, async (answer) => {
      server.answer = answer
      clock.advance(providersConfig.manifest.cacheTtlMs)
      const report = await rawCall('GET', '/providers/acme-data/manifest')
      assertDeclaredAnswer(report, answer)
      if (report.status !== 200 || !Array.isArray(report.json.checks)) {
        throw new Error(`manifest report ${report.status} ${report.text.slice(0, 200)}`)
      }
    })
  })
})
