import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { startLocalSite } from '#tests/support/local_site'
import { OutboundConfig } from '#outbound/define_config'
import { changeConfig } from '#tests/support/config'
import {
  mirrorRegistration,
  newOwner,
  postRegistration,
  registerProvider,
} from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

/** A code host on 127.0.0.1 whose answer the test switches: a JSON file, a 500 or a sign-in page. */
async function startSource() {
  const state = { broken: false, signInPage: false }
  const site = await startLocalSite((_request, response) => {
    if (state.broken) {
      response.writeHead(500, { 'content-type': 'text/html' })
      return response.end('<h1>Internal Server Error</h1>')
    }
    if (state.signInPage) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return response.end('<!doctype html><title>Sign in</title>')
    }
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end('{"BTC": 97000}')
  })
  return {
    state,
    hits: () => site.requests.length,
    host: `127.0.0.1:${site.port}`,
    url: `http://127.0.0.1:${site.port}/prices.json`,
    close: () => site.close(),
  }
}

/** The owner's `POST …/feeds/:slug/source/test`, and what a URL source accepts at all. */
test.group('The mirror source test', (group) => {
  let source: Awaited<ReturnType<typeof startSource>>
  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    source = await startSource()
    return () => source.close()
  })

  async function registerMirror(client: ApiClient, type = 'codehost_raw') {
    const owner = await newOwner(client)
    const settings =
      type === 'codehost_raw' ? { type, url: source.url, poll_interval_seconds: 60 } : { type }
    const body = await registerProvider(client, owner.token, mirrorRegistration(settings, 'prices'))
    return { owner, testPath: `/providers/id/${body.provider.id}/feeds/prices/source/test` }
  }

  test('ok, then a broken source in words; nothing is stored; a recovered one is due at once', async ({
    client,
    assert,
  }) => {
    const { owner, testPath } = await registerMirror(client)
    const versions = () => db.from('feed_snapshots').count('* as total').firstOrFail()
    const stored = await versions()

    const ok = await client.post(testPath).bearerToken(owner.token)
    ok.assertStatus(200)
    assert.containsSubset(ok.body(), {
      result: 'ok',
      message: `${source.host} answered a JSON document`,
      upstream_status: 200,
      size_bytes: 14,
    })
    assert.isNumber(ok.body().latency_ms)

    source.state.broken = true
    const broken = await client.post(testPath).bearerToken(owner.token)
    assert.containsSubset(broken.body(), {
      result: 'http_error',
      message: `${source.host} answered HTTP 500`,
      upstream_status: 500,
    })
    assert.deepEqual(await versions(), stored, 'a test stores nothing')

    const feed = await db.from('feeds').where('slug', 'prices').firstOrFail()
    await db
      .from('feed_source_states')
      .where('feed_id', feed.id)
      .update({ failures: 3, next_poll_at: new Date(Date.now() + 3_600_000) })
    source.state.broken = false
    const recovered = await client.post(testPath).bearerToken(owner.token)
    assert.equal(recovered.body().result, 'ok')
    const state = await db.from('feed_source_states').where('feed_id', feed.id).firstOrFail()
    assert.isAtMost(new Date(state.next_poll_at).getTime(), Date.now(), 'polled at the next run')
  })

  test('an HTML page answered with 200 is not_json, with the status it got and its content type', async ({
    client,
    assert,
  }) => {
    const { owner, testPath } = await registerMirror(client)
    source.state.signInPage = true

    const response = await client.post(testPath).bearerToken(owner.token)

    response.assertStatus(200)
    assert.containsSubset(response.body(), {
      result: 'not_json',
      message: `${source.host} did not answer JSON (HTTP 200, content-type: text/html; charset=utf-8)`,
      upstream_status: 200,
    })
  })

  test('sources that are not fetched, another wallet and unknown feeds are refused', async ({
    client,
    assert,
  }) => {
    const { owner, testPath } = await registerMirror(client, 'webhook_push')
    const hits = source.hits()

    const push = await client.post(testPath).bearerToken(owner.token)
    push.assertStatus(409)
    assert.equal(push.body().error.code, 'source_not_fetched')
    assert.equal(
      push.body().error.message,
      'A webhook_push source is not fetched by Tollbooth, so there is nothing to test'
    )

    const stranger = await newOwner(client)
    const foreign = await client.post(testPath).bearerToken(stranger.token)
    foreign.assertStatus(403)
    assert.equal(foreign.body().error.code, 'not_owner')

    const unknown = await client
      .post(testPath.replace('/prices/', '/nope/'))
      .bearerToken(owner.token)
    unknown.assertStatus(404)
    assert.equal(source.hits(), hits)
  })

  test('a poll interval of 61 s and, under production rules, an http:// URL are refused', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const mirror = (url: string, interval: number) =>
      postRegistration(client, owner.token, {
        integration_mode: 'hosted_mirror',
        partner_endpoint: undefined,
        feed: {
          slug: 'prices',
          display_name: 'Prices',
          price_stx: '0.005',
          source: { type: 'objectstore_url', url, poll_interval_seconds: interval },
        },
      })

    const odd = await mirror('https://objects.example.com/p.json', 61)
    odd.assertStatus(422)
    assert.equal(odd.body().error.fields[0].field, 'feed.source.poll_interval_seconds')
    assert.include(odd.body().error.fields[0].message, '60, 300, 900, 3600')

    const restoreRules = changeConfig(await app.container.make(OutboundConfig), {
      httpsOnly: true,
    })
    try {
      const plain = await mirror('http://objects.example.com/p.json', 300)
      plain.assertStatus(422)
      assert.equal(plain.body().error.code, 'invalid_source_url')
    } finally {
      restoreRules()
    }
    assert.equal(source.hits(), 0)
  })
})
