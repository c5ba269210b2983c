import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { BUILTIN_FEEDS } from '#feeds/builtin/catalog'
import { UPSTREAM_NAMES, type UpstreamName } from '#feeds/builtin/upstreams'
import { sources as driverFactories } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { SourceUnavailable } from '#feeds/source_driver'
import Feed from '#models/feed'
import { type AnswerServer, sourceAnswers, startAnswerServer } from '#tests/support/answer_server'
import { transfer } from '#tests/support/devnet'
import { assertDeclaredAnswer, fuzz, rawCall, slowRuns, useFuzzGroup } from '#tests/support/fuzz'
import { paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { newOwner, registerProvider, urlMirrorRegistration } from '#tests/support/providers'
import { TEST_SETTINGS } from '#tests/support/upstreams'

const HANDSHAKE_RESULTS = [
  'ok',
  'unreachable',
  'secret_mismatch',
  'path_mismatch',
  'bad_json',
  'timeout',
  'partner_error',
  'refused_target',
]

/** A driver call ends with data or a SourceUnavailable (503 source_unavailable), nothing else. */
async function assertDataOrUnavailable(call: Promise<unknown>, input: unknown) {
  try {
    await call
  } catch (error) {
    if (error instanceof SourceUnavailable) return
    throw new Error(`${String(error)} for ${JSON.stringify(input).slice(0, 300)}`)
  }
}

/** Money moved: the ledger's entries and the providers' cached balances. */
async function ledgerState() {
  const [entries] = await db.from('ledger_entries').count('* as n')
  const balances = await db
    .from('providers')
    .orderBy('id')
    .select('pending_revenue_microstx', 'lifetime_earned_microstx')
  return JSON.stringify({ entries, balances })
}

/**
 * What partners, mirrored URLs and the built-in feeds' upstreams answer,
 * fuzzed from a real HTTP server on 127.0.0.1: status, headers, body and
 * framing. The service answers a declared result, a failed source charges
 * nothing, and a driver fails only as SourceUnavailable.
 */
test.group('Fuzzing | what sources answer', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  useFuzzGroup(group, { globalTransaction: false })
  let server: AnswerServer
  group.each.setup(async () => {
    server = await startAnswerServer()
    return () => server.close()
  })

  test('a partner answering the handshake test', async ({ client }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token, {
      partner_endpoint: server.url,
    })

    await fuzz(sourceAnswers, async (answer) => {
      server.answer = answer
      const result = await rawCall('POST', `/providers/id/${provider.id}/hmac/test`, {
        token: owner.token,
      })
      assertDeclaredAnswer(result, answer)
      if (result.status !== 200 || !HANDSHAKE_RESULTS.includes(result.json.result)) {
        throw new Error(`handshake answered ${result.status} ${result.text.slice(0, 200)}`)
      }
    })
  })

  test('a partner answering a paid call: data and a charge, or 503 and nothing charged', async ({
    client,
  }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, { partner_endpoint: server.url })
    const path = '/feeds/p/acme-data/btc-price'
    const { json: quote } = await rawCall('GET', path)
    let nonce = 0n
    const payment = async () => {
      const amount = BigInt(quote.accepts[0].amount)
      const tx = await transfer({ recipient: stack.payTo, amount, nonce })
      return paymentHeader(quote, tx.serialize())
    }
    let header = await payment()

    await fuzz(
      sourceAnswers,
      async (answer) => {
        server.answer = answer
        const before = await ledgerState()
        const result = await rawCall('GET', path, { headers: { 'payment-signature': header } })
        assertDeclaredAnswer(result, answer)
        if (result.status === 200) {
          nonce++
          header = await payment()
          return
        }
        if (result.status !== 503 || result.json.error.code !== 'source_unavailable') {
          throw new Error(`paid call answered ${result.status} ${result.text.slice(0, 200)}`)
        }
        if ((await ledgerState()) !== before) throw new Error('a failed source charged the buyer')
      },
      { runs: slowRuns() * 2 }
    )
  })

  test('a mirrored URL answering polls', async ({ client }) => {
    server.answer = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"ok":true}'),
      end: 'normal',
    }
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, urlMirrorRegistration(`${server.url}/prices.json`))
    const feed = await Feed.findByOrFail('slug', 'prices')
    const driver = await sources.use('codehost_raw')

    await fuzz(sourceAnswers, async (answer) => {
      server.answer = answer
      await assertDataOrUnavailable(driver.poll!(feed), answer)
      await assertDataOrUnavailable(driver.fetch(feed, { query: {} }), answer)
    })
  })

  test("the built-in feeds' upstreams", async () => {
    const baseUrls = Object.fromEntries(
      UPSTREAM_NAMES.map((name) => [name, `${server.url}/${name}`])
    )
    sources.fake(
      'builtin',
      driverFactories.builtin({
        baseUrls: baseUrls as Record<UpstreamName, string>,
        simulated: true,
        timeoutMs: 5_000,
        maxBytes: 5_000_000,
        settings: TEST_SETTINGS,
      })
    )
    const driver = await sources.use('builtin')
    const feeds = await Feed.query().whereIn(
      'slug',
      BUILTIN_FEEDS.map(({ id }) => id)
    )
    const query = { address: `0x${'ab'.repeat(20)}`, chain: 'ethereum' }
    try {
      for (const feed of feeds) {
        await fuzz(
          sourceAnswers,
          async (answer) => {
            server.answer = answer
            await assertDataOrUnavailable(driver.fetch(feed, { query }), {
              feed: feed.slug,
              answer,
            })
          },
          { runs: slowRuns() }
        )
      }
    } finally {
      await sources.restore('builtin')
    }
  })
})
