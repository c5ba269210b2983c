import { request } from 'node:http'
import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import { UpstreamSimulator } from '@tollbooth/upstream-simulator'
import { PlatformWallet } from '#chain/platform_wallet'
import { LedgerAudit } from '#ledger/ledger_audit'
import type { PaymentRequired } from '#payments/x402'
import { WithdrawalChainAudit } from '#withdrawals/withdrawal_chain_audit'
import { pointAppAtDevnet } from '#tests/support/chain'
import { startInstance, startScheduler } from '#tests/support/cluster'
import { emptyMarketplaceLater } from '#tests/support/database'
import { broadcast, transfer } from '#tests/support/devnet'
import { metricValue, scrape } from '#tests/support/metrics'
import { paymentHeader } from '#tests/support/paid_calls'
import { PLATFORM_FUNDS, providerWithRevenue } from '#tests/support/withdrawals'

const STX = 1_000_000n
const PRICE = 5_000n

/** A request on a connection of its own: the cluster hands each new connection to the next worker. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}
) {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          connection: 'close',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (response) => {
        let text = ''
        response.on('data', (chunk) => (text += chunk))
        response.once('end', () =>
          resolve({ status: response.statusCode!, body: JSON.parse(text) })
        )
      }
    )
    outgoing.once('error', reject)
    outgoing.end(body)
  })
}

/** Polls the database every 200 ms until `done` holds (the test's own time-out bounds it). */
async function eventually(done: () => Promise<boolean>) {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 200))
}

/**
 * `npm start` with 3 HTTP workers (and its scheduler) plus a scheduler of
 * another instance, on one database and one devnet: paid calls and
 * withdrawals reach the workers at once, both schedulers run every job each
 * second (start/scheduler.ts, tests) over the same rows.
 */
test.group('3 HTTP workers and 2 schedulers on one database', (group) => {
  // The processes commit what they write: emptied afterwards, the built-in feeds' counters restored.
  group.each.setup(() => emptyMarketplaceLater())

  test('no payment is redeemed twice, no withdrawal sent twice, no job done twice', async ({
    client,
    assert,
    cleanup,
  }) => {
    const wallet = await app.container.make(PlatformWallet)
    const chain = await pointAppAtDevnet({
      blockTimeMs: 0,
      fund: [{ address: wallet.address, amount: PLATFORM_FUNDS }],
    })
    const simulator = await new UpstreamSimulator().listen()
    const env = { STACKS_API_URL: chain.devnet.url, UPSTREAM_SIMULATOR_URL: simulator.url }
    const otherScheduler = startScheduler(env)
    const instance = await startInstance(3, env).catch(async (error) => {
      await otherScheduler.stop()
      throw error
    })
    // The processes first: the devnet and the simulator close once their clients are gone.
    cleanup(async () => {
      await Promise.all([instance.stop(), otherScheduler.stop()])
      await simulator.close()
      await chain.cleanup()
    })
    const { owner, providerId, withdrawalWallet } = await providerWithRevenue(client, 10n * STX)

    // Four buyers; each presents its one transfer to three connections at once.
    const feed = `${instance.url}/feeds/whale-alerts`
    const quote = await send(feed)
    const required = quote.body as PaymentRequired
    const buyers = DEVNET_ACCOUNTS.slice(1, 5)
    const transfers = await Promise.all(
      buyers.map((buyer) =>
        transfer({
          senderKey: buyer.privateKey,
          recipient: wallet.address,
          amount: PRICE,
          nonce: 0n,
        })
      )
    )
    const paying = transfers.flatMap((tx) =>
      [1, 2, 3].map(() =>
        send(feed, { headers: { 'payment-signature': paymentHeader(required, tx.serialize()) } })
      )
    )
    // Three withdrawal requests with one idempotency key, and two with keys of their own.
    const withdraw = (key: string) =>
      send(`${instance.url}/providers/id/${providerId}/withdraw`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}` },
        body: {
          amount_microstx: Number(STX),
          destination_address: withdrawalWallet,
          idempotency_key: key,
        },
      })
    const sharedKey = randomUUID()
    const withdrawing = [sharedKey, sharedKey, sharedKey, randomUUID(), randomUUID()].map(withdraw)
    const [paid, withdrawn] = await Promise.all([Promise.all(paying), Promise.all(withdrawing)])

    // A payment whose request was cut off after the broadcast: on chain, left to payments:reconcile.
    const orphan = DEVNET_ACCOUNTS[5]
    const orphanTx = await transfer({
      senderKey: orphan.privateKey,
      recipient: wallet.address,
      amount: PRICE,
      nonce: 0n,
    })
    await broadcast(chain.devnet, orphanTx)
    const anHourAgo = new Date(Date.now() - 3_600_000)
    const whaleAlerts = await db.from('feeds').where('slug', 'whale-alerts').first()
    await db.table('payments').insert({
      txid: orphanTx.txid(),
      feed_id: whaleAlerts.id,
      resource: 'GET /feeds/whale-alerts',
      payer: orphan.address,
      amount_microstx: PRICE,
      nonce: 0,
      network: 'stacks:2147483648',
      raw_tx: Buffer.from(orphanTx.serializeBytes()),
      status: 'broadcast',
      claimed_at: anHourAgo,
      broadcast_at: anHourAgo,
      updated_at: anHourAgo,
    })
    // The withdrawals' transfers are mined; withdrawals:confirm takes them once past its grace.
    await db.from('withdrawals').update({ updated_at: anHourAgo })
    await eventually(async () => {
      const unsettled = await db
        .from('payments')
        .where('status', 'broadcast')
        .union((query) =>
          query.from('withdrawals').whereNot('status', 'confirmed').select('status')
        )
        .select('status')
      return unsettled.length === 0
    })
    const scraped = await scrape(instance.url)

    // Payments: each transfer served once (200); its twins were refused (402) or told it settles (202).
    for (const [n, tx] of transfers.entries()) {
      const answers = paid.slice(3 * n, 3 * n + 3).map((answer) => answer.status)
      assert.equal(answers.filter((status) => status === 200).length, 1, `${tx.txid()}: ${answers}`)
      assert.includeMembers([200, 202, 402], answers)
    }
    const postings = await db
      .from('ledger_transactions')
      .where('kind', 'payment')
      .groupBy('reference')
      .select('reference')
      .count('* as count')
    assert.sameMembers(
      postings.map((row) => row.reference),
      [...transfers, orphanTx].map((tx) => tx.txid())
    )
    assert.isTrue(postings.every((row) => Number(row.count) === 1))

    // Withdrawals: one per idempotency key, each sent once and confirmed once.
    assert.isTrue(
      withdrawn.every((answer) => [200, 201].includes(answer.status)),
      JSON.stringify(withdrawn)
    )
    const sharedIds = new Set(withdrawn.slice(0, 3).map((answer) => answer.body.withdrawal.id))
    assert.equal(sharedIds.size, 1)
    const withdrawals = await db.from('withdrawals').select('id', 'txid', 'nonce')
    assert.lengthOf(withdrawals, 3)
    assert.equal(new Set(withdrawals.map((row) => row.nonce)).size, 3)
    assert.equal(chain.devnet.balanceOf(withdrawalWallet), 3n * STX)
    const confirmations = await db
      .from('withdrawal_events')
      .where('to_status', 'confirmed')
      .groupBy('withdrawal_id')
      .select('withdrawal_id')
      .count('* as count')
    assert.lengthOf(confirmations, 3)
    assert.isTrue(confirmations.every((row) => Number(row.count) === 1))

    // The instance's scrape sums its workers: the four paid calls, and the orphan if its own
    // scheduler (not the other instance's) reconciled it.
    assert.equal(
      metricValue(scraped, 'tollbooth_paid_calls_total{outcome="paid",way="onchain"}'),
      4
    )
    assert.oneOf(metricValue(scraped, 'tollbooth_revenue_microstx_total{way="onchain"}'), [
      4 * Number(PRICE),
      5 * Number(PRICE),
    ])

    const ledgerAudit = await app.container.make(LedgerAudit)
    const chainAudit = await app.container.make(WithdrawalChainAudit)
    const ledger = await ledgerAudit.run()
    const onChain = await chainAudit.run()
    assert.deepEqual([...ledger.discrepancies, ...onChain], [])
  }).timeout(90_000)
})
