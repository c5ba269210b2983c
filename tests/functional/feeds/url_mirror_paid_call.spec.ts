import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { MirrorPoller } from '#feeds/mirror_poller'
import { useBuyer, usePaidCallStack } from '#tests/support/paid_calls'
import {
  mirrorRegistration,
  newOwner,
  postRegistration,
  urlMirrorRegistration,
} from '#tests/support/providers'

const LAST_MODIFIED = 'Mon, 23 Nov 2026 09:00:00 GMT'

/** A code host on 127.0.0.1 serving the provider's JSON file. */
async function startCodeHost(document: () => unknown) {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'last-modified': LAST_MODIFIED })
    response.end(JSON.stringify(document()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/prices.json`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

test.group('A URL-mirrored feed, end to end', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  const buyer = useBuyer(stack)
  let document: unknown = { BTC: 97_000 }
  let host: Awaited<ReturnType<typeof startCodeHost>>

  group.each.setup(async () => {
    document = { BTC: 97_000 }
    host = await startCodeHost(() => document)
    return () => host.close()
  })

  test('registering polls the source once; the paid call serves the stored snapshot, not the source', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const registered = await postRegistration(
      client,
      owner.token,
      mirrorRegistration(
        { type: 'codehost_raw', url: host.url, poll_interval_seconds: 60 },
        'prices'
      )
    )
    registered.assertStatus(201)
    assert.deepEqual(registered.body().first_poll, { result: 'ok' })
    document = { BTC: 98_000 }
    const shown = await client
      .get(`/providers/id/${registered.body().provider.id}`)
      .bearerToken(owner.token)
    const health = shown.body().provider.feeds[0].source_health
    assert.containsSubset(health, {
      last_error: null,
      consecutive_failures: 0,
      snapshot: {
        version: 1,
        size_bytes: JSON.stringify({ BTC: 97_000 }).length,
        last_updated: Date.parse(LAST_MODIFIED),
      },
    })
    assert.isString(health.last_success_at)
    assert.match(health.snapshot.content_hash, /^sha256:[0-9a-f]{64}$/)

    const { response: paid } = await buyer.pay(client, '/feeds/p/mirror-co/prices')

    paid.assertStatus(200)
    assert.deepEqual(paid.body().data, { BTC: 97_000 }, 'the stored snapshot, not the source')
    assert.equal(paid.body().last_updated, Date.parse(LAST_MODIFIED))
    assert.notProperty(paid.body(), 'stale')

    const edited = await client
      .patch(`/providers/id/${registered.body().provider.id}/feeds/prices`)
      .bearerToken(owner.token)
      .json({ source: { type: 'codehost_raw', url: `${host.url}?v=2`, poll_interval_seconds: 60 } })
    edited.assertStatus(200)
    assert.deepEqual(
      edited.body().first_poll,
      { result: 'ok' },
      'an edited source is polled at once'
    )
    assert.equal(edited.body().feed.source_health.snapshot.version, 2)
    const { response: repaid } = await buyer.pay(client, '/feeds/p/mirror-co/prices')
    assert.deepEqual(repaid.body().data, { BTC: 98_000 })
  })

  test('a source that fails its first poll: the feed is created, the owner told why, buyers get 503 before any payment is asked', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const registered = await postRegistration(
      client,
      owner.token,
      urlMirrorRegistration('http://127.0.0.1:9/prices.json')
    )
    registered.assertStatus(201)
    assert.equal(registered.body().first_poll.result, 'failed')
    assert.include(registered.body().first_poll.error, '127.0.0.1:9')
    const shown = await client
      .get(`/providers/id/${registered.body().provider.id}`)
      .bearerToken(owner.token)
    assert.containsSubset(shown.body().provider.feeds[0].source_health, {
      last_success_at: null,
      last_error: registered.body().first_poll.error,
      consecutive_failures: 1,
      snapshot: null,
    })

    const before = await client.get('/feeds/p/mirror-co/prices')
    before.assertStatus(503)
    before.assertBodyContains({ error: { code: 'source_unavailable' } })

    const poller = await app.container.make(MirrorPoller)
    const summary = await poller.run()
    assert.equal(summary.failed, 0, 'nothing due yet: it backs off')
  })
})
