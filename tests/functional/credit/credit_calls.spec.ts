import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient, ApiResponse } from '@japa/api-client'
import { randomPrivateKey } from '@stacks/transactions'
import { FeedDirectory } from '#feeds/feed_directory'
import { FeedReader } from '#feeds/feed_reader'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { LedgerAudit } from '#ledger/ledger_audit'
import { signedRefund, topUp } from '#tests/support/credit'
import { emptyMarketplaceLater, inGlobalTransaction } from '#tests/support/database'
import { registerFeedsWithUploadedRates } from '#tests/support/hosted_mirror'
import { pointBuiltinFeedsAtSimulator } from '#tests/support/paid_calls'
import { useManualClock } from '#tests/support/clock'
import { signMessage, walletOf } from '#tests/support/sign_in'
import { useWithdrawalStack } from '#tests/support/withdrawals'

const ledger = await app.container.make(Ledger)

async function creditOf(address: string) {
  return -(await ledger.balanceOf(accounts.buyerCredit(address)))
}

/** A credit token of the key's wallet with these limits, through the real endpoints. */
async function creditToken(
  client: ApiClient,
  key: string,
  limits = { spend_cap_stx: '5', max_price_stx: '0.01' }
) {
  const nonce = await client.post('/credit/nonce').json({ address: walletOf(key), ...limits })
  nonce.assertStatus(200)
  const { message } = nonce.body()
  const exchanged = await client
    .post('/credit/tokens')
    .json({ message, signature: signMessage(message, key) })
  exchanged.assertStatus(201)
  return exchanged.body().token as string
}

/** A wallet with `credit` µSTX and a token of it. */
async function buyer(
  client: ApiClient,
  credit: bigint,
  limits?: Parameters<typeof creditToken>[2]
) {
  const key = randomPrivateKey()
  const address = walletOf(key)
  if (credit > 0n) await topUp(address, credit)
  return { key, address, token: await creditToken(client, key, limits) }
}

async function entriesOf(kind: string) {
  return db
    .from('ledger_entries')
    .join('ledger_transactions', 'ledger_transactions.id', 'ledger_entries.transaction_id')
    .where('ledger_transactions.kind', kind)
    .select('ledger_entries.account', 'ledger_entries.amount_microstx')
    .orderBy('ledger_entries.account')
}

async function count(table: string) {
  const [row] = await db.from(table).count('* as n')
  return Number(row.n)
}

/** Returns once `sessions` database sessions wait on a lock. */
async function sessionsWaitingOnLocks(sessions: number) {
  for (;;) {
    const [row] = await db
      .from('pg_stat_activity')
      .where({ wait_event_type: 'Lock' })
      .whereRaw('datname = current_database()')
      .count('* as waiting')
    if (Number(row.waiting) >= sessions) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A 402 that offers both ways to pay: the on-chain requirement and the credit extension. */
function assertBothWaysToPay(response: ApiResponse, assert: any, error: string) {
  response.assertStatus(402)
  const body = response.body()
  assert.equal(body.error, error)
  assert.equal(body.accepts[0].scheme, 'exact')
  assert.equal(body.extensions.credit.info.header, 'credit-token')
  assert.isString(response.header('payment-required'))
}

test.group('Calls paid from credit', (group) => {
  let restoreSimulator: () => Promise<void>
  let simulator: Awaited<ReturnType<typeof pointBuiltinFeedsAtSimulator>>['simulator']

  group.setup(async () => {
    const pointed = await pointBuiltinFeedsAtSimulator()
    simulator = pointed.simulator
    restoreSimulator = pointed.restore
    return () => restoreSimulator()
  })
  group.each.setup(() => inGlobalTransaction())

  test('a built-in feed is served from credit: the price debited, the call logged off chain', async ({
    client,
    assert,
  }) => {
    const { address, token } = await buyer(client, 100_000n)

    const response = await client
      .get('/feeds/whale-alerts')
      .header('credit-token', token)
      .header('x-agent-name', 'credit-bot')

    response.assertStatus(200)
    const body = JSON.parse(response.text())
    assert.deepEqual(Object.keys(body).slice(0, 5), [
      'data',
      'price',
      'price_stx',
      'data_source',
      'last_updated',
    ])
    assert.equal(body.price, 5_000)
    assert.equal(response.header('credit-balance'), 'balance=95000; token_remaining=4995000')
    assert.isUndefined(response.header('payment-response'))
    assert.equal(await creditOf(address), 95_000n)
    assert.deepEqual(await entriesOf('credit_call'), [
      { account: `credit:${address}`, amount_microstx: '5000' },
      { account: 'platform:revenue', amount_microstx: '-5000' },
    ])
    const call = await db.from('credit_calls').firstOrFail()
    assert.equal(call.response, response.text())
    assert.equal(call.payer, address)
    const logged = await db.from('query_log').firstOrFail()
    assert.isNull(logged.txid)
    assert.equal(logged.credit_call_id, call.id)

    const activity = await client.get('/activity')
    assert.containsSubset(activity.body().activity[0], {
      feed: 'whale-alerts',
      agent_name: 'credit-bot',
      price_stx: 0.005,
      is_onchain: false,
      tx_hash: null,
    })
    const leaderboard = await client.get('/leaderboard')
    assert.containsSubset(leaderboard.body().agents[0], {
      agent_name: 'credit-bot',
      total_queries: 1,
    })
    const stats = await client.get('/stats')
    assert.deepInclude(
      stats
        .body()
        .feed_breakdown.find((feed: { feed_id: string }) => feed.feed_id === 'whale-alerts'),
      { queries: 1 }
    )
  })

  test("a provider's feed bought from credit pays the provider 97 % and the platform 3 %", async ({
    client,
    assert,
  }) => {
    await registerFeedsWithUploadedRates(client)
    const { address, token } = await buyer(client, 100_000n)

    const response = await client.get('/feeds/p/mirror-co/rates').header('credit-token', token)

    response.assertStatus(200)
    assert.deepEqual(JSON.parse(response.text()).data, { rate: 1.25 })
    const provider = await db.from('providers').where('handle', 'mirror-co').firstOrFail()
    assert.deepEqual(await entriesOf('credit_call'), [
      { account: `credit:${address}`, amount_microstx: '5000' },
      { account: 'platform:fees', amount_microstx: '-150' },
      { account: `provider:${provider.id}:pending`, amount_microstx: '-4850' },
    ])
    assert.equal(provider.pending_revenue_microstx, '4850')
    assert.equal(provider.lifetime_earned_microstx, '4850')
    const audit = await app.container.make(LedgerAudit)
    const report = await audit.run()
    assert.deepEqual(report.discrepancies, [])
    const daily = await db.from('feed_daily_stats').firstOrFail()
    assert.containsSubset(daily, {
      queries: '1',
      gross_microstx: '5000',
      provider_share_microstx: '4850',
    })
  })

  test("a thief with a victim's token is bounded by the limits the victim signed", async ({
    client,
    assert,
  }) => {
    const feeds = await registerFeedsWithUploadedRates(client)
    const provider = await db.from('providers').where('handle', 'mirror-co').firstOrFail()
    const pricey = await client
      .post(`/providers/id/${provider.id}/feeds`)
      .bearerToken(feeds.token)
      .json({
        slug: 'pricey',
        display_name: 'Pricey',
        price_stx: '10',
        source: { type: 'manual_upload' },
      })
    pricey.assertStatus(201)
    await client
      .post(`/providers/id/${provider.id}/feeds/pricey/upload`)
      .bearerToken(feeds.token)
      .json({ nothing: true })
      .then((upload) => upload.assertStatus(200))
    const victim = await buyer(client, 50_000_000n, {
      spend_cap_stx: '0.008',
      max_price_stx: '0.005',
    })

    const tooPricey = await client
      .get('/feeds/p/mirror-co/pricey')
      .header('credit-token', victim.token)
    assertBothWaysToPay(tooPricey, assert, 'credit_price_above_limit')

    const first = await client.get('/feeds/p/mirror-co/rates').header('credit-token', victim.token)
    first.assertStatus(200)
    const second = await client.get('/feeds/p/mirror-co/rates').header('credit-token', victim.token)
    assertBothWaysToPay(second, assert, 'credit_spend_cap_reached')

    assert.equal(await creditOf(victim.address), 50_000_000n - 5_000n)
    assert.equal(await count('credit_calls'), 1)
    const spent = await db.from('credit_tokens').firstOrFail()
    assert.equal(spent.spent_microstx, '5000')
  })

  test("a wallet's token never spends another wallet's credit", async ({ client, assert }) => {
    const rich = await buyer(client, 1_000_000n)
    const broke = await buyer(client, 0n)

    const response = await client.get('/feeds/whale-alerts').header('credit-token', broke.token)

    assertBothWaysToPay(response, assert, 'insufficient_credit')
    assert.equal(await creditOf(rich.address), 1_000_000n)
    assert.equal(await count('credit_calls'), 0)
    assert.equal(await count('ledger_transactions'), 1)
    assert.equal(await count('query_log'), 0)
  })

  test('a retry with the same payment-identifier returns the same bytes and is debited once', async ({
    client,
    assert,
  }) => {
    const { address, token } = await buyer(client, 100_000n)
    const id = 'retry-0123456789abcdef'

    const first = await client
      .get('/feeds/whale-alerts')
      .header('credit-token', token)
      .header('payment-identifier', id)
    const retried = await client
      .get('/feeds/whale-alerts')
      .header('credit-token', token)
      .header('payment-identifier', id)
    const elsewhere = await client
      .get('/feeds/btc-sentiment')
      .header('credit-token', token)
      .header('payment-identifier', id)
    const malformed = await client
      .get('/feeds/whale-alerts')
      .header('credit-token', token)
      .header('payment-identifier', 'short')

    first.assertStatus(200)
    retried.assertStatus(200)
    assert.equal(retried.text(), first.text())
    elsewhere.assertStatus(409)
    elsewhere.assertBodyContains({ error: { code: 'payment_identifier_conflict' } })
    malformed.assertStatus(422)
    assert.equal(await creditOf(address), 95_000n)
    assert.equal(await count('credit_calls'), 1)
    assert.equal(await count('query_log'), 1)
  })

  test('a retry of a credit call after the feed was paused gets the same bytes, debited once', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { address, token } = await buyer(client, 100_000n)
    const call = () =>
      client
        .get('/feeds/whale-alerts')
        .header('credit-token', token)
        .header('payment-identifier', 'paused-0123456789abcdef')

    const first = await call()
    await db.from('feeds').where('slug', 'whale-alerts').update({ status: 'paused' })
    // The directory keeps feeds for a second: let it see the pause, and forget it after the test.
    const directory = await app.container.make(FeedDirectory)
    directory.forget()
    cleanup(() => directory.forget())
    const retried = await call()
    const fresh = await client.get('/feeds/whale-alerts').header('credit-token', token)

    first.assertStatus(200)
    retried.assertStatus(200)
    assert.equal(retried.text(), first.text())
    fresh.assertStatus(503)
    fresh.assertBodyContains({ error: { code: 'feed_unavailable' } })
    assert.equal(await creditOf(address), 95_000n)
    assert.equal(await count('credit_calls'), 1)
  })

  test('a source failure debits nothing', async ({ client, assert }) => {
    const { address, token } = await buyer(client, 100_000n)
    simulator.failNext('mempool', 'status_503', 10)

    const failed = await client.get('/feeds/gas-prediction').header('credit-token', token)

    failed.assertStatus(503)
    failed.assertBodyContains({ error: { code: 'source_unavailable' } })
    assert.equal(await creditOf(address), 100_000n)
    assert.equal(await count('credit_calls'), 0)
    simulator.clearFaults()
  })

  test('an unknown or expired token is refused with credit_token_invalid', async ({
    client,
    assert,
  }) => {
    const { address, token } = await buyer(client, 100_000n)
    await db.from('credit_tokens').update({ expires_at: new Date(0) })

    for (const presented of [token, 'tbc_not-a-token', 'x'.repeat(300)]) {
      const response = await client.get('/feeds/whale-alerts').header('credit-token', presented)
      response.assertStatus(401)
      response.assertBodyContains({ error: { code: 'credit_token_invalid' } })
    }
    assert.equal(await creditOf(address), 100_000n)
  })

  test('a token that expires while its call is fetched is refused as invalid, nothing debited', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { clock, restore } = await useManualClock()
    cleanup(restore)
    const { address, token } = await buyer(client, 100_000n)
    // The fetch outlasts the token: it is found valid, and has expired by the debit.
    const reader = await app.container.make(FeedReader)
    const slowReader = Object.create(reader) as FeedReader
    slowReader.read = async (feed, query) => {
      clock.advance(3_600_001)
      return reader.read(feed, query)
    }
    app.container.swap(FeedReader, () => slowReader)
    cleanup(() => app.container.restore(FeedReader))

    const response = await client.get('/feeds/whale-alerts').header('credit-token', token)

    response.assertStatus(401)
    response.assertBodyContains({ error: { code: 'credit_token_invalid' } })
    assert.equal(await creditOf(address), 100_000n)
    assert.equal(await count('credit_calls'), 0)
  })

  test("the feed's 402 advertises credit; its header carries the credit info only", async ({
    client,
    assert,
  }) => {
    const response = await client.get('/feeds/whale-alerts')

    response.assertStatus(402)
    const credit = response.body().extensions.credit
    assert.containsSubset(credit.info, {
      header: 'credit-token',
      chainId: 'stacks:2147483648',
      topUpMinimum: '100000',
      topUpMaximum: '100000000',
      tokenMaxLifetimeSeconds: 3600,
    })
    assert.match(credit.info.nonceUrl, /\/credit\/nonce$/)
    assert.match(credit.info.tokenUrl, /\/credit\/tokens$/)
    assert.match(credit.info.topUpUrl, /\/credit\/top-ups$/)
    assert.equal(credit.schema.type, 'object')
    const header = JSON.parse(
      Buffer.from(response.header('payment-required')!, 'base64').toString()
    )
    assert.deepEqual(header.extensions.credit, { info: credit.info })
  })
})

test.group('Calls paid from credit, concurrently (committed)', (group) => {
  group.setup(async () => {
    const pointed = await pointBuiltinFeedsAtSimulator()
    return () => pointed.restore()
  })
  // Refunds go through the pipeline on a devnet; after each test ledger:audit must be clean.
  useWithdrawalStack(group, { blockTimeMs: null })
  // Each call commits its own transaction: what it wrote is emptied again, the
  // built-in feeds' counters put back as they were.
  group.each.setup(() => emptyMarketplaceLater())

  test('two concurrent calls with one payment-identifier and room for one are both served, debited once', async ({
    client,
    assert,
  }) => {
    // Each token's cap allows one call: the second of a pair must be answered the first's bytes.
    const limits = { spend_cap_stx: '0.005', max_price_stx: '0.005' }
    const buyers = await Promise.all(
      Array.from({ length: 5 }, () => buyer(client, 100_000n, limits))
    )

    const pairs = await Promise.all(
      buyers.map(({ token }, index) =>
        Promise.all(
          [0, 1].map(() =>
            client
              .get('/feeds/whale-alerts')
              .header('credit-token', token)
              .header('payment-identifier', `concurrent-retry-000${index}`)
          )
        )
      )
    )

    for (const [first, second] of pairs) {
      first.assertStatus(200)
      second.assertStatus(200)
      assert.equal(second.text(), first.text())
    }
    for (const { address } of buyers) assert.equal(await creditOf(address), 95_000n)
    assert.equal(await count('credit_calls'), 5)
  }).timeout(60_000)

  test('a debit the database refuses at its commit is answered credit_call_outcome_unknown (without a payment-identifier, a 500 that invites no retry); the retry with its payment-identifier is served, debited once', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { address, token } = await buyer(client, 100_000n)
    const allowCommits = async () => {
      await db.rawQuery('DROP TRIGGER IF EXISTS refuse_at_commit ON credit_calls')
      await db.rawQuery('DROP FUNCTION IF EXISTS refuse_at_commit()')
    }
    cleanup(allowCommits)
    // A check that fails only at commit, as a deferred constraint or a lost connection would.
    await db.rawQuery(
      `CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql
         AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$`
    )
    await db.rawQuery(
      `CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON credit_calls
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit()`
    )
    const call = () =>
      client
        .get('/feeds/whale-alerts')
        .header('credit-token', token)
        .header('payment-identifier', 'refused-at-commit-0001')

    const refused = await call()

    refused.assertStatus(503)
    assert.equal(refused.body().error.code, 'credit_call_outcome_unknown')
    assert.equal(refused.header('retry-after'), '1')
    assert.equal(await creditOf(address), 100_000n)
    // Without an identifier nothing could match a retry to it: no invitation to retry.
    const withoutId = await client.get('/feeds/whale-alerts').header('credit-token', token)
    withoutId.assertStatus(500)
    assert.isUndefined(withoutId.header('retry-after'))

    await allowCommits()
    const retried = await call()

    retried.assertStatus(200)
    assert.equal(await creditOf(address), 95_000n)
    assert.equal(await count('credit_calls'), 1)
  })

  test('100 concurrent calls against a balance that covers 40: exactly 40 are served', async ({
    client,
    assert,
  }) => {
    const { address, token } = await buyer(client, 40n * 5_000n)

    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        client.get('/feeds/whale-alerts').header('credit-token', token)
      )
    )

    const statuses = responses.map((response) => response.status())
    assert.equal(statuses.filter((status) => status === 200).length, 40)
    assert.equal(statuses.filter((status) => status === 402).length, 60)
    for (const refused of responses.filter((response) => response.status() === 402)) {
      assert.equal(refused.body().error, 'insufficient_credit')
    }
    assert.equal(await creditOf(address), 0n)
    assert.equal(await count('credit_calls'), 40)
    assert.equal(await count('query_log'), 40)
    const spent = await db.from('credit_tokens').firstOrFail()
    assert.equal(spent.spent_microstx, '200000')
  }).timeout(60_000)

  test('two calls at once with one payment-identifier, the token able to pay once: both answered the same bytes, one debit', async ({
    client,
    assert,
  }) => {
    const { address, token } = await buyer(client, 100_000n, {
      spend_cap_stx: '0.005',
      max_price_stx: '0.005',
    })
    const { id: tokenId } = await db.from('credit_tokens').where({ address }).firstOrFail()
    // The token's row held: both calls pass their checks and fetch, then wait at the debit.
    const holder = await db.transaction()
    await holder.rawQuery('SELECT 1 FROM credit_tokens WHERE id = ? FOR NO KEY UPDATE', [tokenId])
    const calls = Promise.all(
      [1, 2].map(() =>
        client
          .get('/feeds/whale-alerts')
          .header('credit-token', token)
          .header('payment-identifier', 'at-once-0123456789abcdef')
      )
    )
    await sessionsWaitingOnLocks(2)
    await holder.commit()
    const [first, second] = await calls

    first.assertStatus(200)
    second.assertStatus(200)
    assert.equal(second.text(), first.text())
    assert.equal(await creditOf(address), 95_000n)
    assert.equal(await count('credit_calls'), 1)
  })

  test('100 concurrent calls from four tokens of one wallet against a balance that covers 40: exactly 40 are served', async ({
    client,
    assert,
  }) => {
    // Each token could spend it all: only the ledger's never-negative check stops the 41st.
    const key = randomPrivateKey()
    const address = walletOf(key)
    await topUp(address, 40n * 5_000n)
    const tokens = await Promise.all([0, 1, 2, 3].map(() => creditToken(client, key)))

    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        client.get('/feeds/whale-alerts').header('credit-token', tokens[index % tokens.length])
      )
    )

    const statuses = responses.map((response) => response.status())
    assert.equal(statuses.filter((status) => status === 200).length, 40)
    assert.equal(statuses.filter((status) => status === 402).length, 60)
    for (const refused of responses.filter((response) => response.status() === 402)) {
      assert.equal(refused.body().error, 'insufficient_credit')
    }
    assert.equal(await creditOf(address), 0n)
    assert.equal(await count('credit_calls'), 40)
    const [spent] = await db.from('credit_tokens').sum('spent_microstx as total')
    assert.equal(String(spent.total), '200000')
  }).timeout(60_000)

  test('a refund racing credit calls never takes the credit below zero', async ({
    client,
    assert,
  }) => {
    const { key, address, token } = await buyer(client, 300_000n)
    const refund = await signedRefund(client, { address, key }, '0.2')

    // 0.2 STX refunded and 30 calls of 0.005 STX ask for 0.35 STX of 0.3.
    const [refunded, ...calls] = await Promise.all([
      client.post('/credit/refunds').json(refund),
      ...Array.from({ length: 30 }, () =>
        client.get('/feeds/whale-alerts').header('credit-token', token)
      ),
    ])

    const served = calls.filter((call) => call.status() === 200).length
    for (const refused of calls.filter((call) => call.status() !== 200)) {
      refused.assertStatus(402)
      assert.equal(refused.body().error, 'insufficient_credit')
    }
    assert.oneOf(refunded.status(), [202, 422])
    const refundedAmount = refunded.status() === 202 ? 200_000n : 0n
    const left = 300_000n - BigInt(served) * 5_000n - refundedAmount
    assert.isAtLeast(Number(left), 0)
    assert.equal(await creditOf(address), left)
    assert.equal(await count('credit_calls'), served)
    const audit = await app.container.make(LedgerAudit)
    const report = await audit.run()
    assert.deepEqual(report.discrepancies, [])
  }).timeout(60_000)

  test('a token used after the whole balance was refunded is refused with insufficient_credit', async ({
    client,
    assert,
  }) => {
    const { key, address, token } = await buyer(client, 200_000n)
    const first = await client.get('/feeds/whale-alerts').header('credit-token', token)
    first.assertStatus(200)

    const refunded = await client
      .post('/credit/refunds')
      .json(await signedRefund(client, { address, key }, '0.195'))
    refunded.assertStatus(202)
    const after = await client.get('/feeds/whale-alerts').header('credit-token', token)

    assertBothWaysToPay(after, assert, 'insufficient_credit')
    assert.equal(await creditOf(address), 0n)
    assert.equal(await count('credit_calls'), 1)
  })
})
