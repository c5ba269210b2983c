import { availableParallelism, cpus, loadavg } from 'node:os'
import { setTimeout } from 'node:timers/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { privateKeyToAddress, randomPrivateKey } from '@stacks/transactions'
import { PlatformWallet } from '#chain/platform_wallet'
import { LedgerAudit } from '#ledger/ledger_audit'
import type { PaymentRequired } from '#payments/x402'
import { topUp } from '#tests/support/credit'
import { emptyMarketplace } from '#tests/support/database'
import { paymentHeader } from '#tests/support/paid_calls'
import { forgetRateLimitCounts } from '#tests/support/rate_limits'
import { signMessage, walletOf } from '#tests/support/sign_in'
import { startDevnetProcess } from './support/devnet_process.js'
import { percentile, serviceCpu } from './support/service_cpu.js'
import { benchTransfer, startBenchedService } from './support/benched_service.js'
import { recordFigure } from './support/summary.js'

/**
 * Calls paid from prepaid credit (docs/credit.md) against the production
 * build in its own process, beside the per-call on-chain payment of the same
 * feed in the same run, so the ratio is on record (docs/performance.md#credit-calls).
 * The wallets' credit is posted as a confirmed top-up leaves it (the payment
 * row and its posting, so ledger:audit vouches for it); their tokens come
 * from the real POST /credit/nonce and /credit/tokens. BENCH_CREDIT_SCALE
 * (default 1) scales the timed calls, not the 1 000-call burst.
 */
const SCALE = Number(process.env.BENCH_CREDIT_SCALE ?? 1)
const BUYERS = 32
const CREDIT_CALLS_EACH = Math.max(1, Math.round(20 * SCALE))
const PAID_CALLS_EACH = Math.max(1, Math.round(5 * SCALE))
const WARM_UP_CALLS_EACH = 4
/** The paced phase: each buyer calls once every PACE_MS, the buyers' turns spread over it. */
const PACED_CALLS_EACH = 10
const PACE_MS = 400
/** The burst: every wallet's calls at once, its credit covering only some of them. */
const BURST = { wallets: 100, callsEach: 10, affordableEach: 7 }
const PRICE = 5_000n

test.group('Benchmark', () => {
  test('credit calls beside per-call payments: latency, CPU, a 1 000-call burst', async ({
    assert,
    cleanup,
  }) => {
    const wallet = await app.container.make(PlatformWallet)
    const db = await app.container.make('lucid.db')
    // Last (japa runs cleanups last to first): the credit accounts go, or the
    // run's final rollback of the credit migration refuses to drop them.
    cleanup(() => emptyMarketplace())
    const paidKeys = Array.from({ length: BUYERS }, () => randomPrivateKey())
    const devnet = await startDevnetProcess({
      blockTimeMs: 0,
      fund: paidKeys.map((key) => privateKeyToAddress(key, 'devnet')),
    })
    cleanup(() => devnet.stop())
    const { url: serviceUrl, pids } = await startBenchedService(devnet.url, cleanup)
    const load1 = loadavg()[0]
    const feedUrl = `${serviceUrl}/feeds/whale-alerts`

    /**
     * A credit token of a new wallet holding `credit`, through the real
     * endpoints. They allow 60 requests a minute per client address and every
     * request here comes from 127.0.0.1: the bench's own limiter counters are
     * cleared when it says 429 (the limit is not what is measured).
     */
    async function creditBuyer(credit: bigint) {
      const key = randomPrivateKey()
      const address = walletOf(key)
      await topUp(address, credit)
      const post = async (path: string, body: object): Promise<any> => {
        for (;;) {
          const response = await fetch(`${serviceUrl}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
          if (response.status !== 429) {
            assert.oneOf(response.status, [200, 201], await response.clone().text())
            return response.json()
          }
          await forgetRateLimitCounts()
        }
      }
      const { message } = await post('/credit/nonce', {
        address,
        spend_cap_stx: '5',
        max_price_stx: '0.01',
      })
      const { token } = await post('/credit/tokens', {
        message,
        signature: signMessage(message, key),
      })
      return { address, token: token as string }
    }
    async function inTurns<T>(count: number, make: () => Promise<T>) {
      const made: T[] = []
      for (let i = 0; i < count; i += 8) {
        made.push(...(await Promise.all(Array.from({ length: Math.min(8, count - i) }, make))))
      }
      return made
    }

    const enough = PRICE * BigInt(CREDIT_CALLS_EACH + WARM_UP_CALLS_EACH + PACED_CALLS_EACH)
    const creditBuyers = await inTurns(BUYERS, () => creditBuyer(enough))
    const burstBuyers = await inTurns(BURST.wallets, () =>
      creditBuyer(PRICE * BigInt(BURST.affordableEach))
    )

    const quote = await fetch(feedUrl)
    const required = (await quote.json()) as PaymentRequired
    // Every on-chain transfer signed now, before anything is timed.
    const signed = await Promise.all(
      paidKeys.map((key) =>
        Promise.all(
          Array.from({ length: WARM_UP_CALLS_EACH + PAID_CALLS_EACH }, (_, nonce) =>
            benchTransfer(key, nonce, { recipient: wallet.address, amount: PRICE }).then((tx) =>
              paymentHeader(required, tx.serialize())
            )
          )
        )
      )
    )
    // Signing kept this process busy: let it see the idle keep-alive connections close.
    await setTimeout(200)

    /**
     * Each buyer makes its calls in a row, all buyers at once: the latencies
     * (ms) and statuses. With `paceMs`, a buyer's k-th call starts k × paceMs
     * after its turn (the buyers' turns spread over one pace), or as soon as
     * its previous call answered if that was later.
     */
    async function calls(buyers: Record<string, string>[][], { paceMs = 0 } = {}) {
      const latencies: number[] = []
      const statuses: number[] = []
      const start = performance.now()
      await Promise.all(
        buyers.map(async (requests, buyer) => {
          for (const [call, headers] of requests.entries()) {
            if (paceMs > 0) {
              const due = start + (buyer / buyers.length + call) * paceMs
              await setTimeout(Math.max(0, due - performance.now()))
            }
            const started = performance.now()
            const response = await fetch(feedUrl, { headers })
            await response.arrayBuffer()
            latencies.push(performance.now() - started)
            statuses.push(response.status)
          }
        })
      )
      return { latencies, statuses }
    }
    const creditCalls = (from: number, to: number) =>
      creditBuyers.map(({ token }) =>
        Array.from({ length: to - from }, () => ({ 'credit-token': token }))
      )
    const paidCalls = (from: number, to: number) =>
      signed.map((headers) =>
        headers.slice(from, to).map((header) => ({ 'payment-signature': header }))
      )

    await calls(creditCalls(0, WARM_UP_CALLS_EACH))
    await calls(paidCalls(0, WARM_UP_CALLS_EACH))
    const creditFrom = process.hrtime.bigint() / 1_000n
    const credit = await serviceCpu(pids, () =>
      calls(creditCalls(WARM_UP_CALLS_EACH, WARM_UP_CALLS_EACH + CREDIT_CALLS_EACH))
    )
    const creditTo = process.hrtime.bigint() / 1_000n
    const timed = {
      credit,
      'on-chain': await serviceCpu(pids, () =>
        calls(paidCalls(WARM_UP_CALLS_EACH, WARM_UP_CALLS_EACH + PAID_CALLS_EACH))
      ),
    }

    if (process.env.BENCH_CPU_PROFILE) {
      console.log(`CPU profile window of the credit calls: ${creditFrom} ${creditTo}`)
    }
    const pacedFrom = WARM_UP_CALLS_EACH + CREDIT_CALLS_EACH
    const paced = await calls(creditCalls(pacedFrom, pacedFrom + PACED_CALLS_EACH), {
      paceMs: PACE_MS,
    })

    // The burst: every call of every wallet at once.
    const answers = await Promise.all(
      burstBuyers.flatMap(({ token }) =>
        Array.from({ length: BURST.callsEach }, async () => {
          const response = await fetch(feedUrl, { headers: { 'credit-token': token } })
          const body = (await response.json()) as { error?: string }
          return { status: response.status, error: body.error }
        })
      )
    )
    const payers = burstBuyers.map(({ address }) => address)
    const accounts = payers.map((address) => `credit:${address}`)
    const overdrafts = await db
      .from('ledger_accounts')
      .whereIn('name', accounts)
      .whereRaw('credits_microstx < debits_microstx')
      .count('* as n')
    const [callRows] = await db.from('credit_calls').whereIn('payer', payers).count('* as n')
    const postings = await db
      .from('ledger_transactions')
      .join('ledger_entries', 'ledger_entries.transaction_id', 'ledger_transactions.id')
      .where('ledger_transactions.kind', 'credit_call')
      .whereIn('ledger_entries.account', accounts)
      .count('* as n')
    const served = answers.filter(({ status }) => status === 200).length
    const refused = answers.filter(({ error }) => error === 'insufficient_credit').length
    const ledgerAudit = await app.container.make(LedgerAudit)
    const audit = await ledgerAudit.run()

    const results: Record<string, string> = {}
    for (const [way, measured] of Object.entries(timed)) {
      const { latencies, statuses } = measured.result
      assert.deepEqual(
        statuses.filter((status) => status !== 200),
        [],
        `${way} calls not all served`
      )
      const count = latencies.length
      const cpuMs = (measured.appMs + measured.dbMs) / count
      const target = way === 'credit' ? ' (targets ≤ 10 / ≤ 50)' : ''
      results[`${way}: latency p50 / p99, ${BUYERS} buyers (ms)${target}`] =
        `${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} (${count} calls, ${(count / measured.seconds).toFixed(0)} calls/s)`
      results[`${way}: service CPU per call (ms)${way === 'credit' ? ' (target ≤ 1)' : ''}`] =
        `${cpuMs.toFixed(2)} (app ${(measured.appMs / count).toFixed(2)} + PostgreSQL ${(measured.dbMs / count).toFixed(2)})`
    }
    assert.deepEqual(
      paced.statuses.filter((status) => status !== 200),
      [],
      'paced credit calls not all served'
    )
    results[`credit, paced: latency p50 / p99, ${BUYERS} buyers calling every ${PACE_MS} ms (ms)`] =
      `${percentile(paced.latencies, 50).toFixed(1)} / ${percentile(paced.latencies, 99).toFixed(1)} (${paced.latencies.length} calls, ${((BUYERS * 1000) / PACE_MS).toFixed(0)} calls/s offered)`
    const perCall = (way: keyof typeof timed) =>
      (timed[way].appMs + timed[way].dbMs) / timed[way].result.latencies.length
    results['on-chain ÷ credit: latency p50, CPU per call'] =
      `${(percentile(timed['on-chain'].result.latencies, 50) / percentile(timed.credit.result.latencies, 50)).toFixed(1)}×, ${(perCall('on-chain') / perCall('credit')).toFixed(1)}×`
    results[
      `burst: ${BURST.wallets * BURST.callsEach} concurrent credit calls of ${BURST.wallets} wallets, credit for ${BURST.affordableEach} each`
    ] =
      `${served} served, ${refused} insufficient_credit, ${answers.length - served - refused} other`
    results['burst: overdrafts / double debits (target 0 / 0)'] =
      `${overdrafts[0].n} / ${Math.abs(Number(callRows.n) - served) + Math.abs(Number(postings[0].n) - served)} (credit_calls ${callRows.n}, credit_call postings ${postings[0].n}, served ${served})`
    results['ledger:audit after the run'] =
      audit.discrepancies.length === 0 ? 'clean' : audit.discrepancies.join('; ')
    results['machine'] =
      `${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, Node ${process.version}, load average ${load1.toFixed(1)} → ${loadavg()[0].toFixed(1)}`

    console.log('\nCredit call benchmark (production build)')
    for (const [name, value] of Object.entries(results)) {
      console.log(`  ${name.padEnd(70)} ${value}`)
      recordFigure('credit call', name, value)
    }
    assert.equal(Number(overdrafts[0].n), 0)
    assert.equal(served, BURST.wallets * BURST.affordableEach)
    assert.equal(Number(callRows.n), served)
    assert.equal(Number(postings[0].n), served)
    assert.deepEqual(audit.discrepancies, [])
  })
})
