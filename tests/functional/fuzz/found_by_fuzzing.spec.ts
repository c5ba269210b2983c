import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import sources from '#feeds/services/main'
import Feed from '#models/feed'
import { type AnswerServer, startAnswerServer } from '#tests/support/answer_server'
import { transfer } from '#tests/support/devnet'
import { rawCall } from '#tests/support/fuzz'
import { pushHeaders, registerPushAndUploadFeeds } from '#tests/support/hosted_mirror'
import { SITE_HOST, useLocalSiteClient } from '#tests/support/local_site'
import { paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { newOwner, registerProvider, urlMirrorRegistration } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

const DEEP = '['.repeat(20_000) + ']'.repeat(20_000)

function json(body: string) {
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(body),
    end: 'normal' as const,
  }
}

/**
 * Inputs the fuzz suite found (tests/functional/fuzz), kept as they were:
 * each was a database or stack error before the fix.
 */
test.group('Found by fuzzing | sources answering JSON we cannot keep', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  let server: AnswerServer
  group.each.setup(async () => {
    server = await startAnswerServer()
    return () => server.close()
  })

  test('a mirrored document with {name} fails the poll as not_a_document; the last copy stays')
    .with([
      { name: 'a NUL in a string', document: '{"a":"\\u0000"}' },
      { name: 'a NUL in a key', document: '{"a\\u0000":1}' },
      { name: 'an unpaired surrogate', document: '{"a":"\\ud800"}' },
      { name: 'arrays nested 20 000 deep', document: DEEP },
      { name: 'a number beyond a double (1e400)', document: '{"a":1e400}' },
    ])
    .run(async ({ client, assert }, { document }) => {
      server.answer = json('{"BTC":97000}')
      const owner = await newOwner(client)
      await registerProvider(
        client,
        owner.token,
        urlMirrorRegistration(`${server.url}/prices.json`)
      )
      const feed = await Feed.findByOrFail('slug', 'prices')
      const driver = await sources.use('codehost_raw')

      server.answer = json(document)
      const failure = await driver.poll!(feed).then(
        () => null,
        (error) => error
      )

      assert.equal(failure?.kind, 'not_a_document')
      assert.include(failure?.message, 'cannot be stored')
      const served = await driver.fetch(feed, { query: {} })
      assert.deepEqual(served.data, { BTC: 97_000 })
    })

  test('a partner answering JSON nested 20 000 deep is a 503 and charges nothing', async ({
    client,
    assert,
  }) => {
    server.answer = json(DEEP)
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, { partner_endpoint: server.url })
    const path = '/feeds/p/acme-data/btc-price'
    const { json: quote } = await rawCall('GET', path)
    const tx = await transfer({ recipient: stack.payTo, amount: BigInt(quote.accepts[0].amount) })

    const answer = await rawCall('GET', path, {
      headers: { 'payment-signature': paymentHeader(quote, tx.serialize()) },
    })

    assert.equal(answer.status, 503)
    assert.equal(answer.json.error.code, 'source_unavailable')
    const [{ n }] = await db.from('ledger_entries').count('* as n')
    assert.equal(Number(n), 0)
  })
})

test.group('Found by fuzzing | a manifest we cannot write back out', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('a manifest nested 20 000 deep is reported absent, not a 500', async ({
    client,
    assert,
  }) => {
    const server = await startAnswerServer()
    const outbound = useLocalSiteClient()
    try {
      server.answer = json(`{"version":${DEEP}}`)
      const owner = await newOwner(client)
      await registerProvider(client, owner.token, {
        website: `http://${SITE_HOST}:${new URL(server.url).port}`,
      })

      const report = await client.get('/providers/acme-data/manifest')

      report.assertStatus(200)
      const present = report
        .body()
        .checks.find((check: { name: string }) => check.name === 'manifest_present')
      assert.isFalse(present.ok)
      assert.include(present.detail, 'nested deeper than 256 levels')
    } finally {
      await outbound.restore()
      await server.close()
    }
  })
})

test.group('Found by fuzzing | a pushed or uploaded number beyond a double', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('{"BTC":1e400} is refused as not_a_json_document, not stored as {"BTC":null}', async ({
    client,
    assert,
  }) => {
    const { token, pushSecret, uploadPath } = await registerPushAndUploadFeeds(client)
    const body = '{"BTC":1e400}'
    const path = '/ingest/mirror-co/ticker'

    const pushed = await rawCall('POST', path, {
      body,
      headers: pushHeaders(pushSecret, path, body),
    })
    const uploaded = await rawCall('POST', uploadPath, { body, token })

    for (const answer of [pushed, uploaded]) {
      assert.equal(answer.status, 422, answer.text)
      assert.equal(answer.json.error.code, 'not_a_json_document')
      assert.include(answer.json.error.message, '1e400')
    }
    const [{ n }] = await db.from('feed_snapshots').count('* as n')
    assert.equal(Number(n), 0)
  })
})
