import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Assert } from '@japa/assert'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { ChainConfig } from '#chain/define_config'
import { MirrorPoller } from '#feeds/mirror_poller'
import Feed from '#models/feed'
import { feedPaymentRequired } from '#payments/feed_payment_required'
import { SENDER, transfer } from '#tests/support/devnet'
import { pushHeaders, registerPushAndUploadFeeds } from '#tests/support/hosted_mirror'
import { rawCall } from '#tests/support/fuzz'
import { type PaidCallStack, paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { newOwner, postRegistration, urlMirrorRegistration } from '#tests/support/providers'
import { logLinesSince, runLogSoFar } from '#tests/support/run_log'

/** What the service recorded of payments, money and calls: all of it must stay as it was. */
async function recorded() {
  const count = async (table: string) => {
    const [row] = await db.from(table).count('* as n')
    return Number(row.n)
  }
  return {
    payments: await count('payments'),
    ledgerEntries: await count('ledger_entries'),
    queryLog: await count('query_log'),
    feedStats: await feedStats(),
  }
}

/** Each feed's rollup: paid calls, and calls to its source and how many failed. */
async function feedStats() {
  const rows = await db.from('feed_stats').orderBy('feed_id')
  return rows.map((row) => ({
    feed_id: row.feed_id as string,
    total_queries: Number(row.total_queries),
    source_calls: Number(row.source_calls),
    source_failures: Number(row.source_failures),
  }))
}

async function nextNonce(stack: PaidCallStack) {
  const answer = await fetch(`${stack.devnet.url}/extended/v1/address/${SENDER.address}/nonces`)
  return ((await answer.json()) as { possible_next_nonce: number }).possible_next_nonce
}

/**
 * A `payment-signature` a buyer signed for the feed at `path` (handle/slug),
 * for the price and terms the service quotes it at: a real transfer of the
 * devnet's funded sender, at its next nonce.
 */
async function signedPaymentFor(
  stack: PaidCallStack,
  handle: string,
  slug: string,
  paymentIdentifier?: string
) {
  const feed = await Feed.query()
    .where('slug', slug)
    .whereHas('provider', (provider) => provider.where('handle', handle))
    .firstOrFail()
  const path = `/feeds/p/${handle}/${slug}`
  const chain = await app.container.make(ChainConfig)
  const required = feedPaymentRequired(
    { feed, path, query: {} },
    { payTo: stack.payTo, network: chain.network }
  )
  const nonce = await nextNonce(stack)
  const tx = await transfer({
    recipient: stack.payTo,
    amount: feed.priceMicrostx,
    nonce: BigInt(nonce),
  })
  return { path, header: paymentHeader(required, tx.serialize(), paymentIdentifier), nonce }
}

/**
 * A Hosted Mirror feed with no stored document cannot serve: it answers 503
 * source_unavailable before any payment is asked (no 402), also to a request
 * that already carries a signed payment — nothing verified, claimed or
 * broadcast, nothing recorded — and its source's uptime is untouched.
 */
test.group('A feed with no data yet', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  /** Asks for `path` unpaid, then with a signed payment; both must be the same 503. */
  async function expectNotSold(client: ApiClient, assert: Assert, handle: string, slug: string) {
    const before = await recorded()
    const { path, header, nonce } = await signedPaymentFor(stack, handle, slug)

    const unpaid = await client.get(path)
    const paying = await client.get(path).header('payment-signature', header)

    for (const [label, response] of [
      ['unpaid', unpaid],
      ['with a signed payment', paying],
    ] as const) {
      response.assertStatus(503)
      assert.equal(response.body().error.code, 'source_unavailable', label)
      assert.include(response.body().error.message, `Feed "${slug}" has no data yet`, label)
      assert.equal(response.header('retry-after'), '60', label)
      assert.isUndefined(response.header('payment-required'), `${label}: no payment asked`)
      assert.isUndefined(response.header('payment-response'), `${label}: no payment handled`)
    }
    assert.deepEqual(await recorded(), before, 'no payment, ledger entry, call or stat recorded')
    assert.equal(await nextNonce(stack), nonce, 'the signed transfer was not broadcast')
    return { path, header }
  }

  test('a URL mirror whose first fetch failed; once fetched, the same signed payment buys it', async ({
    client,
    assert,
  }) => {
    let failing = true
    const source = await rawSource(() => failing)
    try {
      const owner = await newOwner(client)
      const registered = await postRegistration(
        client,
        owner.token,
        urlMirrorRegistration(source.url)
      )
      assert.equal(registered.body().first_poll.result, 'failed')
      const failedPoll = await recorded()
      assert.containsSubset(failedPoll.feedStats, [{ source_calls: 1, source_failures: 1 }])

      const { path, header } = await expectNotSold(client, assert, 'mirror-co', 'prices')

      failing = false
      const poller = await app.container.make(MirrorPoller)
      const feed = await Feed.findByOrFail('slug', 'prices')
      assert.equal(await poller.pollOne(feed), 'updated')
      const paid = await client.get(path).header('payment-signature', header)
      paid.assertStatus(200)
      assert.deepEqual(paid.body().data, { BTC: 97_000 })
    } finally {
      await source.close()
    }
  })

  test('a push feed and an upload feed before their first document', async ({ client, assert }) => {
    const feeds = await registerPushAndUploadFeeds(client)

    await expectNotSold(client, assert, 'mirror-co', 'ticker')
    const { path, header } = await expectNotSold(client, assert, 'mirror-co', 'rates')

    const uploaded = await rawCall('POST', feeds.uploadPath, {
      body: JSON.stringify({ EUR: 1.08 }),
      token: feeds.token,
      headers: { 'content-type': 'application/json' },
    })
    assert.equal(uploaded.status, 200)
    const paid = await client.get(path).header('payment-signature', header)
    paid.assertStatus(200)
    assert.deepEqual(paid.body().data, { EUR: 1.08 })
    assert.containsSubset(
      await feedStats(),
      [{ total_queries: 1, source_calls: 0, source_failures: 0 }],
      'a stored copy served is no source call'
    )
  })

  test('a feed whose document went away between the quote and the payment asks nothing', async ({
    client,
    assert,
  }) => {
    const feeds = await registerPushAndUploadFeeds(client)
    await pushTicker(feeds, assert)
    const quote = await client.get('/feeds/p/mirror-co/ticker')
    quote.assertStatus(402)

    // A new source starts the feed afresh, without its old copy.
    await switchTickerToUploads(client, feeds)

    await expectNotSold(client, assert, 'mirror-co', 'ticker')
  })

  test('the 503 is logged as a warning without a stack, not as an error', async ({
    client,
    assert,
  }) => {
    await registerPushAndUploadFeeds(client)
    const before = await runLogSoFar()
    const { header } = await signedPaymentFor(stack, 'mirror-co', 'rates')

    const unpaid = await client.get('/feeds/p/mirror-co/rates')
    const paying = await client.get('/feeds/p/mirror-co/rates').header('payment-signature', header)
    unpaid.assertStatus(503)
    paying.assertStatus(503)

    const lines = await logLinesSince(before)
    const reported = lines.filter((line) => String(line.msg).includes('has no data yet'))
    assert.lengthOf(reported, 2)
    for (const line of reported) {
      assert.equal(line.level, 40, 'warn')
      assert.notProperty(line, 'err', 'no error object, no stack')
    }
    assert.deepEqual(
      lines.filter((line) => Number(line.level) >= 50),
      [],
      'nothing at error level'
    )
  })

  test('a paused feed also refuses a signed payment before handling it', async ({
    client,
    assert,
  }) => {
    const feeds = await registerPushAndUploadFeeds(client)
    const uploaded = await rawCall('POST', feeds.uploadPath, {
      body: JSON.stringify({ EUR: 1.08 }),
      token: feeds.token,
      headers: { 'content-type': 'application/json' },
    })
    assert.equal(uploaded.status, 200)
    const { path, header, nonce } = await signedPaymentFor(stack, 'mirror-co', 'rates')
    await db.from('feeds').where('slug', 'rates').update({ status: 'paused' })
    const before = await recorded()

    const paying = await client.get(path).header('payment-signature', header)

    paying.assertStatus(503)
    assert.equal(paying.body().error.code, 'feed_unavailable')
    assert.deepEqual(await recorded(), before)
    assert.equal(await nextNonce(stack), nonce)
  })

  test('a paid call retried once the feed {case} gets its stored answer; a fresh payment a 503')
    .with([
      { case: 'was paused', code: 'feed_unavailable' },
      { case: 'lost its copy to a new source', code: 'source_unavailable' },
    ])
    .run(async ({ client, assert }, { case: change, code }) => {
      const feeds = await registerPushAndUploadFeeds(client)
      const uploaded = await rawCall('POST', feeds.uploadPath, {
        body: JSON.stringify({ EUR: 1.08 }),
        token: feeds.token,
        headers: { 'content-type': 'application/json' },
      })
      assert.equal(uploaded.status, 200)
      const { path, header } = await signedPaymentFor(
        stack,
        'mirror-co',
        'rates',
        'retry-payment-id-0001'
      )
      const paid = await client.get(path).header('payment-signature', header)
      paid.assertStatus(200)

      const feedPath = `/providers/id/${feeds.uploadPath.split('/')[3]}/feeds/rates`
      const changed =
        change === 'was paused'
          ? await client.patch(`${feedPath}/state`).bearerToken(feeds.token).json({ active: false })
          : await client
              .patch(feedPath)
              .bearerToken(feeds.token)
              .json({ source: { type: 'webhook_push' } })
      changed.assertStatus(200)
      const before = await recorded()

      const retried = await client.get(path).header('payment-signature', header)
      retried.assertStatus(200)
      assert.equal(retried.text(), paid.text(), 'the very answer paid for')
      assert.equal(retried.header('payment-response'), paid.header('payment-response'))

      const fresh = await signedPaymentFor(stack, 'mirror-co', 'rates', 'retry-payment-id-0002')
      const refused = await client.get(path).header('payment-signature', fresh.header)
      refused.assertStatus(503)
      assert.equal(refused.body().error.code, code)
      assert.deepEqual(await recorded(), before, 'nothing charged or recorded again')
      assert.equal(await nextNonce(stack), fresh.nonce, 'the fresh transfer was not broadcast')
    })
})

/** Counts the SQL statements naming `table` that reach PostgreSQL, until `stop()`. */
function countStatementsOn(table: string) {
  const clients = new Set([db.connection().getReadClient(), db.connection().getWriteClient()])
  let count = 0
  const listener = (query: { sql: string }) => {
    if (query.sql.includes(table)) count++
  }
  for (const knex of clients) knex.on('query', listener)
  return {
    get count() {
      return count
    },
    stop: () => {
      for (const knex of clients) knex.off('query', listener)
    },
  }
}

test.group('A feed with data', (group) => {
  usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })

  test('its unpaid 402s look for its stored document once, until its source is switched', async ({
    client,
    assert,
  }) => {
    const feeds = await registerPushAndUploadFeeds(client)
    await pushTicker(feeds, assert)
    const path = '/feeds/p/mirror-co/ticker'
    const snapshotReads = countStatementsOn('feed_snapshots')
    try {
      const first = await client.get(path)
      first.assertStatus(402)
      assert.equal(snapshotReads.count, 1, 'the first 402 looks for the document')
      for (let call = 0; call < 3; call++) {
        const next = await client.get(path)
        next.assertStatus(402)
      }
      assert.equal(snapshotReads.count, 1, 'the next ones know it has one')

      await switchTickerToUploads(client, feeds)
      const afterSwitch = snapshotReads.count

      const unsold = await client.get(path)
      unsold.assertStatus(503)
      assert.equal(unsold.body().error.code, 'source_unavailable')
      assert.equal(snapshotReads.count, afterSwitch + 1, 'looked for it again')
    } finally {
      snapshotReads.stop()
    }
  })
})

type PushAndUploadFeeds = Awaited<ReturnType<typeof registerPushAndUploadFeeds>>

/** mirror-co/ticker's first document, pushed and taken. */
async function pushTicker(feeds: PushAndUploadFeeds, assert: Assert) {
  const ingest = '/ingest/mirror-co/ticker'
  const body = JSON.stringify({ BTC: 97_000 })
  const pushed = await rawCall('POST', ingest, {
    body,
    headers: pushHeaders(feeds.pushSecret, ingest, body),
  })
  assert.equal(pushed.status, 202)
}

/** mirror-co/ticker moved to uploads: a new source starts without the pushed copy. */
async function switchTickerToUploads(client: ApiClient, feeds: PushAndUploadFeeds) {
  const providerId = feeds.uploadPath.split('/')[3]
  const changed = await client
    .patch(`/providers/id/${providerId}/feeds/ticker`)
    .bearerToken(feeds.token)
    .json({ source: { type: 'manual_upload' } })
  changed.assertStatus(200)
}

/** A provider's JSON file on 127.0.0.1 that answers 500 while `failing()`. */
async function rawSource(failing: () => boolean) {
  const server = createServer((_request, response) => {
    if (failing()) {
      response.writeHead(500).end()
      return
    }
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ BTC: 97_000 }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/prices.json`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
