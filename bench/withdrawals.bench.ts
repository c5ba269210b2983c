import { randomUUID } from 'node:crypto'
import { availableParallelism, cpus } from 'node:os'
import { setTimeout } from 'node:timers/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import { accounts } from '#ledger/accounts'
import { LedgerAudit } from '#ledger/ledger_audit'
import { pointAppAtChain, stacksClientOptions } from '#tests/support/chain'
import { providerWithRevenue, withoutWithdrawalDelays } from '#tests/support/withdrawals'
import { ConfirmWithdrawals, type ConfirmSummary } from '#withdrawals/confirm_withdrawals'
import { startDevnetProcess } from './support/devnet_process.js'

/**
 * `npm run bench`: money out under load. 1 000 withdrawal requests sent at
 * once across 100 providers (10 each, 1 STX apiece) against the devnet with
 * instant blocks in its own process; then the confirm job in a loop until
 * every withdrawal is settled. Every tenth provider holds only 7.5 STX, so 3
 * of its 10 requests must be refused (409 insufficient_pending_revenue) and
 * none may overdraw. Then the books are checked against the chain: no
 * overdraft, no second transfer, no nonce given twice, `ledger:audit` clean.
 *
 * The confirm job (grace 0, as in the tests) starts after the last answer, so
 * the request rate is the API's alone; the requests themselves sign and send
 * the first 25 (the chaining limit) and queue the rest for the job.
 */
const PROVIDERS = 100
const REQUESTS_PER_PROVIDER = 10
const STX = 1_000_000n
const WITHDRAWAL = STX
const SHORT_EVERY = 10
const SHORT_BALANCE = 7_500_000n
const FULL_BALANCE = 10n * STX
/** A guard, not a target: a busy shared machine must not fail the run. */
const SETTLE_DEADLINE_MS = 180_000

interface Sent {
  provider: number
  status: number
  code: string | null
  latencyMs: number
}

interface ChainTx {
  tx_id: string
  tx_status: string
  nonce: number
  sender_address: string
  token_transfer?: { recipient_address: string; amount: string; memo: string }
}

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** The devnet's Hiro API, read directly (the app's client does not return recipients and memos). */
async function chainGet<T>(devnetUrl: string, path: string): Promise<T> {
  const response = await fetch(`${devnetUrl}${path}`)
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`)
  return (await response.json()) as T
}

async function chainTransactions(devnetUrl: string, txids: string[]) {
  const found = new Map<string, ChainTx | null>()
  for (let i = 0; i < txids.length; i += 100) {
    const chunk = txids.slice(i, i + 100)
    const query = chunk.map((txid) => `tx_id=0x${txid}`).join('&')
    const body = await chainGet<Record<string, { found: boolean; result: ChainTx }>>(
      devnetUrl,
      `/extended/v1/tx/multiple?${query}`
    )
    for (const txid of chunk) {
      const entry = body[`0x${txid}`]
      found.set(txid, entry?.found ? entry.result : null)
    }
  }
  return found
}

test.group('Benchmark', () => {
  test('1 000 concurrent withdrawals across 100 providers', async ({ client, assert }) => {
    const base = `http://${env.get('HOST')}:${env.get('PORT')}`
    const wallet = await app.container.make(PlatformWallet)
    const devnet = await startDevnetProcess({ blockTimeMs: 0, fund: [wallet.address] })
    const chain = await pointAppAtChain(devnet.url, {
      client: (baseUrl) => new StacksClient(stacksClientOptions(baseUrl, { timeoutMs: 5_000 })),
    })
    const restoreConfig = withoutWithdrawalDelays()
    const results: Record<string, string> = {}

    try {
      const balanceOf = async (address: string) => {
        const answer = await chainGet<{ balance: string }>(
          devnet.url,
          `/extended/v1/address/${address}/stx`
        )
        return BigInt(answer.balance)
      }
      const platformBefore = await balanceOf(wallet.address)

      // 100 signed-in owners, each with a provider, an opening balance and a linked wallet.
      // Unique handles: the bench suite shares one database and never truncates it.
      const tag = Date.now().toString(36)
      const opening = (index: number) => (index % SHORT_EVERY === 0 ? SHORT_BALANCE : FULL_BALANCE)
      const sellers: Awaited<ReturnType<typeof providerWithRevenue>>[] = []
      for (let from = 0; from < PROVIDERS; from += 10) {
        sellers.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, (_, offset) =>
              providerWithRevenue(client, opening(from + offset), {
                handle: `wb-${tag}-${from + offset}`,
              })
            )
          ))
        )
      }
      const providerIds = sellers.map((seller) => seller.providerId)

      // Every request built first, interleaved across providers, then all sent at once.
      const requests = Array.from({ length: PROVIDERS * REQUESTS_PER_PROVIDER }, (_, index) => {
        const provider = index % PROVIDERS
        const seller = sellers[provider]
        return {
          provider,
          url: `${base}/providers/id/${seller.providerId}/withdraw`,
          init: {
            method: 'POST',
            headers: {
              'authorization': `Bearer ${seller.owner.token}`,
              'content-type': 'application/json',
              'accept': 'application/json',
            },
            body: JSON.stringify({
              amount_microstx: Number(WITHDRAWAL),
              destination_address: seller.withdrawalWallet,
              idempotency_key: randomUUID(),
            }),
          },
        }
      })
      const job = await app.container.make(ConfirmWithdrawals)
      const started = performance.now()
      const sent: Sent[] = await Promise.all(
        requests.map(async ({ provider, url, init }) => {
          const requestStarted = performance.now()
          const response = await fetch(url, init)
          const body = (await response.json()) as { error?: { code?: string } }
          return {
            provider,
            status: response.status,
            code: body.error?.code ?? null,
            latencyMs: performance.now() - requestStarted,
          }
        })
      )
      const burstMs = performance.now() - started

      // The confirm job in a loop while the devnet mines each transaction as it arrives.
      const unsettled = async () => {
        const [row] = await db
          .from('withdrawals')
          .whereIn('provider_id', providerIds)
          .whereIn('status', ['pending', 'broadcast'])
          .count('* as count')
        return Number(row.count)
      }
      const totals: ConfirmSummary = {
        confirmed: 0,
        failed: 0,
        rebroadcast: 0,
        pending: 0,
        unsettled: 0,
      }
      let rounds = 0
      while ((await unsettled()) > 0) {
        if (performance.now() - started > SETTLE_DEADLINE_MS) {
          throw new Error(
            `${await unsettled()} withdrawals still unsettled after ${SETTLE_DEADLINE_MS} ms`
          )
        }
        const summary = await job.run()
        rounds++
        for (const key of Object.keys(totals) as (keyof ConfirmSummary)[]) {
          totals[key] += summary[key]
        }
        // Nothing confirmed: the devnet has not mined the last broadcasts yet.
        if (summary.confirmed === 0) await setTimeout(5)
      }
      const settledMs = performance.now() - started

      // Requests: every provider got what its balance covers, the rest refused.
      const expectedPerProvider = (index: number) =>
        Math.min(REQUESTS_PER_PROVIDER, Number(opening(index) / WITHDRAWAL))
      const accepted = sent.filter((request) => request.status === 201)
      const refused = sent.filter(
        (request) => request.status === 409 && request.code === 'insufficient_pending_revenue'
      )
      const unexpected = sent.filter(
        (request) => !accepted.includes(request) && !refused.includes(request)
      )
      const wrongCounts = sellers.filter(
        (_, index) =>
          accepted.filter((request) => request.provider === index).length !==
          expectedPerProvider(index)
      )

      // The withdrawals as the database has them.
      const rows = await db
        .from('withdrawals')
        .whereIn('provider_id', providerIds)
        .select('id', 'provider_id', 'status', 'amount_microstx', 'destination_address')
        .select('memo', 'nonce', 'fee_microstx', 'txid', 'sender_address')
      const confirmed = rows.filter((row) => row.status === 'confirmed')
      const failed = rows.filter((row) => row.status === 'failed')
      const sumOf = (list: typeof rows, column: string) =>
        list.reduce((sum, row) => sum + BigInt(row[column] ?? 0), 0n)

      // Overdrafts: no balance below zero now or at any point of its ledger history, and what
      // left the providers' balances is exactly what was paid out.
      const pendingAccounts = providerIds.map((id) => accounts.providerPending(id).name)
      const lowest = await db.rawQuery(
        `SELECT min(balance) AS lowest FROM (
           SELECT -sum(amount_microstx) OVER (PARTITION BY account ORDER BY id) AS balance
             FROM ledger_entries WHERE account = ANY(?)
         ) history`,
        [pendingAccounts]
      )
      const lowestEver = BigInt(lowest.rows[0].lowest)
      const finals = await db
        .from('providers')
        .whereIn('id', providerIds)
        .select('id', 'pending_revenue_microstx')
      const negativeNow = finals.filter((row) => BigInt(row.pending_revenue_microstx) < 0n).length
      const openingTotal = sellers.reduce((sum, _, index) => sum + opening(index), 0n)
      const finalTotal = finals.reduce((sum, row) => sum + BigInt(row.pending_revenue_microstx), 0n)
      const debited = openingTotal - finalTotal
      const paidOut = sumOf(confirmed, 'amount_microstx')
      const overdrafts = negativeNow + (lowestEver < 0n ? 1 : 0) + (debited === paidOut ? 0 : 1)

      // Duplicate transfers: each withdrawal's txid on chain once, mined, paying its own
      // destination its amount with its memo; each destination holds exactly its confirmed
      // withdrawals; the platform wallet sent nothing else.
      const txids = confirmed.map((row) => row.txid as string)
      const onChain = await chainTransactions(devnet.url, txids)
      const badTransfers = confirmed.filter((row) => {
        const tx = onChain.get(row.txid)
        const transfer = tx?.token_transfer
        return (
          !tx ||
          !transfer ||
          tx.tx_status !== 'success' ||
          tx.sender_address !== wallet.address ||
          BigInt(tx.nonce) !== BigInt(row.nonce) ||
          transfer.recipient_address !== row.destination_address ||
          BigInt(transfer.amount) !== BigInt(row.amount_microstx) ||
          !Buffer.from(transfer.memo.slice(2), 'hex').toString('utf8').startsWith(row.memo)
        )
      })
      const wrongBalances: string[] = []
      for (const seller of sellers) {
        const balance = await balanceOf(seller.withdrawalWallet)
        const expected = sumOf(
          confirmed.filter((row) => row.provider_id === seller.providerId),
          'amount_microstx'
        )
        if (balance !== expected) wrongBalances.push(seller.withdrawalWallet)
      }
      const platform = await chainGet<{ balance: string; total_sent: string }>(
        devnet.url,
        `/extended/v1/address/${wallet.address}/stx`
      )
      const platformNonces = await chainGet<{ possible_next_nonce: number }>(
        devnet.url,
        `/extended/v1/address/${wallet.address}/nonces`
      )
      const fees = sumOf(confirmed, 'fee_microstx')
      const platformSpent = platformBefore - BigInt(platform.balance)
      const duplicates =
        txids.length -
        new Set(txids).size +
        badTransfers.length +
        wrongBalances.length +
        (BigInt(platform.total_sent) === paidOut ? 0 : 1) +
        (platformSpent === paidOut + fees ? 0 : 1) +
        (platformNonces.possible_next_nonce === confirmed.length ? 0 : 1)

      // Nonce conflicts: no platform nonce on two withdrawals (failed ones included), and the
      // confirmed ones use 0 … n-1 without a gap.
      const nonces = rows.filter((row) => row.nonce !== null).map((row) => Number(row.nonce))
      const sharedNonces = nonces.length - new Set(nonces).size
      const confirmedNonces = confirmed.map((row) => Number(row.nonce)).sort((a, b) => a - b)
      const gapless = confirmedNonces.every((nonce, index) => nonce === index)
      const resigned = await db
        .from('withdrawal_events')
        .whereIn(
          'withdrawal_id',
          rows.map((row) => row.id)
        )
        .where('detail', 'like', 'refused (%')
        .count('* as count')

      const auditor = await app.container.make(LedgerAudit)
      const audit = await auditor.run()

      const latencies = sent.map((request) => request.latencyMs)
      results['machine'] =
        `${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, Node ${process.version}`
      results['withdrawal requests (100 providers × 10)'] =
        `${sent.length}: ${accepted.length} × 201, ${refused.length} × 409 insufficient_pending_revenue, ${unexpected.length} other`
      results['requests/s (all 1 000 at once)'] = (sent.length / (burstMs / 1000)).toFixed(1)
      results['request latency p50 / p99 (ms)'] =
        `${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 99).toFixed(0)}`
      results['all confirmed after (s, from first request)'] =
        `${(settledMs / 1000).toFixed(1)} (${((settledMs - burstMs) / 1000).toFixed(1)} after the last answer; ${rounds} confirm rounds: ${totals.confirmed} confirmed, ${totals.failed} failed, ${totals.rebroadcast} re-sent)`
      results['confirmed on chain / µSTX paid out'] = `${confirmed.length} / ${paidOut}`
      results['overdrafts'] =
        `${overdrafts} (lowest balance ever ${lowestEver} µSTX; debited ${debited} = paid ${paidOut}: ${debited === paidOut})`
      results['duplicate transfers'] =
        `${duplicates} (${new Set(txids).size} distinct txids, ${badTransfers.length} bad on chain, ${wrongBalances.length} wrong destination balances)`
      results['nonce conflicts'] =
        `${sharedNonces} (nonces 0…${confirmedNonces.length - 1} gapless: ${gapless}; ${Number(resigned[0].count)} re-signed after a nonce refusal)`
      results['ledger:audit'] =
        audit.discrepancies.length === 0
          ? `clean (${audit.transactions} transactions, ${audit.entries} entries)`
          : `${audit.discrepancies.length} discrepancies`
      console.log('\nBenchmark results: withdrawals')
      for (const [name, value] of Object.entries(results))
        console.log(`  ${name.padEnd(46)} ${value}`)

      assert.lengthOf(unexpected, 0, JSON.stringify(unexpected.slice(0, 5)))
      assert.lengthOf(wrongCounts, 0, 'each provider got exactly what its balance covers')
      assert.lengthOf(failed, 0)
      assert.equal(overdrafts, 0)
      assert.equal(duplicates, 0)
      assert.equal(sharedNonces, 0)
      assert.isTrue(gapless)
      assert.deepEqual(audit.discrepancies, [])
    } finally {
      restoreConfig()
      chain.restore()
      await devnet.stop()
    }
  })
})
