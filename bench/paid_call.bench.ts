import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { setTimeout } from 'node:timers/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { privateKeyToAddress, randomPrivateKey } from '@stacks/transactions'
import { PlatformWallet } from '#chain/platform_wallet'
import { Clock } from '#core/clock'
import { PartnerBridgeDriver } from '#feeds/drivers/partner_bridge_driver'
import type Feed from '#models/feed'
import { OutboundClient } from '#outbound/outbound_client'
import type { PaymentRequired } from '#payments/x402'
import { paymentHeader } from '#tests/support/paid_calls'
import { startCountingProxy } from './support/counting_proxy.js'
import { startDevnetProcess } from './support/devnet_process.js'
import { recoveriesPerCore } from './support/secp256k1_limits.js'
import { percentile, serviceCpu } from './support/service_cpu.js'
import { benchTransfer, startBenchedService } from './support/benched_service.js'
import { recordFigure } from './support/summary.js'

/**
 * `npm run bench`: the paid call against the production build (`npm run
 * build` first), in its own process, with the devnet (instant blocks) in
 * another and the load generator here. What is comparable from one machine
 * to the next, and on this shared one, is the service's CPU time per paid
 * call: the app process's and the PostgreSQL cluster's, from their own
 * accounting (/proc/<pid>/stat), over a timed phase whose transfers were all
 * signed before it started. BENCH_CPU_PROFILE=<dir> also writes the app's
 * V8 CPU profile (`node --cpu-prof`) there. Not part of `npm test`.
 */
const PHASES = [
  { buyers: 32, callsEach: 10 },
  { buyers: 128, callsEach: 5 },
]
/** Paid calls before the timed phases: the JIT and the pools warm up. */
const WARM_UP = { buyers: 16, callsEach: 4 }
const LOAD_REQUESTS = 3_000
const LOAD_CONCURRENCY = 32
const PRICE = 5_000n

/** `total` GETs of `url`, `concurrency` at a time: requests/s. */
async function load(url: string, total: number, concurrency: number) {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) {
        const response = await fetch(url)
        await response.arrayBuffer()
      }
    })
  )
  return total / ((performance.now() - started) / 1000)
}

test.group('Benchmark', () => {
  test('paid calls, their limits, the 402 path and the Partner Bridge', async ({
    assert,
    cleanup,
  }) => {
    const wallet = await app.container.make(PlatformWallet)
    const db = await app.container.make('lucid.db')
    const phases = [WARM_UP, ...PHASES].map((phase) => ({
      ...phase,
      keys: Array.from({ length: phase.buyers }, () => randomPrivateKey()),
    }))
    const devnet = await startDevnetProcess({
      blockTimeMs: 0,
      fund: phases.flatMap(({ keys }) => keys.map((key) => privateKeyToAddress(key, 'devnet'))),
    })
    // Stopped even when the test fails or a later start throws (japa runs them last to first).
    cleanup(() => devnet.stop())
    const chain = await startCountingProxy(devnet.url)
    cleanup(() => chain.close())
    const { url: serviceUrl, pids } = await startBenchedService(chain.url, cleanup)
    const results: Record<string, string> = {}
    const load1 = loadavg()[0]

    const feedUrl = `${serviceUrl}/feeds/whale-alerts`
    const quote = await fetch(feedUrl)
    const required = (await quote.json()) as PaymentRequired
    // Every transfer of every phase signed now, before anything is timed.
    const signed = await Promise.all(
      phases.map(({ keys, callsEach }) =>
        Promise.all(
          keys.map((key) =>
            Promise.all(
              Array.from({ length: callsEach }, (_, nonce) =>
                benchTransfer(key, nonce, { recipient: wallet.address, amount: PRICE }).then((tx) =>
                  paymentHeader(required, tx.serialize())
                )
              )
            )
          )
        )
      )
    )

    // Signing kept this process busy for seconds: let it see the service close the idle
    // keep-alive connections meanwhile, or a paid call may be written to a closing one.
    await setTimeout(200)

    /** Each buyer pays its calls in a row, all buyers at once. */
    async function paidCalls(headers: string[][]) {
      const overhead: number[] = []
      await Promise.all(
        headers.map(async (buyer) => {
          for (const header of buyer) {
            const response = await fetch(feedUrl, { headers: { 'payment-signature': header } })
            await response.arrayBuffer()
            assert.equal(response.status, 200)
            const appMs = /app;dur=(\d+)/.exec(response.headers.get('server-timing') ?? '')
            overhead.push(Number(appMs?.[1] ?? Number.NaN))
          }
        })
      )
      return overhead
    }

    await paidCalls(signed[0])
    const perPaidCall: { buyers: number; cpuMs: number }[] = []
    // CLOCK_MONOTONIC µs, the clock of the CPU profile's timestamps (profile_top.ts's window).
    const timedFrom = process.hrtime.bigint() / 1_000n
    for (const [index, phase] of PHASES.entries()) {
      const requestsBefore = chain.counter.requests
      const pathsBefore = new Map(chain.counter.byPath)
      const measured = await serviceCpu(pids, () => paidCalls(signed[index + 1]))
      const calls = phase.buyers * phase.callsEach
      const cpuMs = (measured.appMs + measured.dbMs) / calls
      perPaidCall.push({ buyers: phase.buyers, cpuMs })
      const label = `${phase.buyers} buyers`
      results[`service CPU per paid call, ${label} (ms, target ≤ 2)`] =
        `${cpuMs.toFixed(2)} (app ${(measured.appMs / calls).toFixed(2)} + PostgreSQL ${(measured.dbMs / calls).toFixed(2)}; ${calls} calls)`
      results[`paid calls/s, ${label}`] = (calls / measured.seconds).toFixed(1)
      results[`service overhead p50 / p99, ${label} (ms)`] =
        `${percentile(measured.result, 50)} / ${percentile(measured.result, 99)}`
      results[`chain API requests per paid call, ${label} (target ≤ 2)`] = (
        (chain.counter.requests - requestsBefore) /
        calls
      ).toFixed(2)
      results[`chain API requests per paid call by endpoint, ${label}`] = [...chain.counter.byPath]
        .map(
          ([path, count]) =>
            `${path} ${((count - (pathsBefore.get(path) ?? 0)) / calls).toFixed(2)}`
        )
        .join(', ')
    }
    if (process.env.BENCH_CPU_PROFILE) {
      console.log(
        `CPU profile window of the paid calls: ${timedFrom} ${process.hrtime.bigint() / 1_000n}`
      )
    }

    // The machine's limits, measured now: a recovery, a small transaction (both sides' CPU).
    const recoveries = recoveriesPerCore(
      await Promise.all(
        phases[0].keys.map((key, nonce) =>
          benchTransfer(key, nonce, { recipient: wallet.address, amount: PRICE })
        )
      )
    )
    await db.rawQuery(
      'CREATE TABLE IF NOT EXISTS bench_commits (id bigserial PRIMARY KEY, at timestamptz DEFAULT now())'
    )
    const COMMITS = 1_000
    const clientBefore = process.cpuUsage()
    const commits = await serviceCpu(pids, async () => {
      for (let i = 0; i < COMMITS; i++) {
        await db.transaction((trx) => trx.table('bench_commits').insert({}))
      }
    })
    const clientCpu = process.cpuUsage(clientBefore)
    await db.rawQuery('DROP TABLE bench_commits')
    const commitClientMs = (clientCpu.user + clientCpu.system) / 1_000 / COMMITS
    const commitServerMs = commits.dbMs / COMMITS
    const commitMs = commitClientMs + commitServerMs
    // A paid call's floor: one recovery and its three commits (claim, hand-over, confirmation).
    const floorMs = 1_000 / recoveries.inUse + 3 * commitMs

    // The 402 path against a bare JSON route of the same process, both warmed up first.
    const bareUrl = `${serviceUrl}/__bench__/bare`
    await load(bareUrl, LOAD_REQUESTS / 4, LOAD_CONCURRENCY)
    await load(feedUrl, LOAD_REQUESTS / 4, LOAD_CONCURRENCY)
    const bare = await serviceCpu(pids, () => load(bareUrl, LOAD_REQUESTS, LOAD_CONCURRENCY))
    const unpaid = await serviceCpu(pids, () => load(feedUrl, LOAD_REQUESTS, LOAD_CONCURRENCY))
    // The app process only: neither route reads the database, whose background work
    // (autovacuum, checkpoints after the paid calls' writes) would only add noise here.
    const cpuPerRequest = (phase: typeof bare) => (phase.appMs * 1_000) / LOAD_REQUESTS

    const bridge = await partnerBridgeOverhead()

    results['machine'] =
      `${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, Node ${process.version}, load average ${load1.toFixed(1)} → ${loadavg()[0].toFixed(1)}`
    results['limit: recoveries/s per core, in use / stacks.js'] =
      `${recoveries.inUse.toFixed(0)} / ${recoveries.stacks.toFixed(0)} (${recoveries.description})`
    results['limit: small PostgreSQL transaction CPU (ms)'] =
      `${commitMs.toFixed(3)} (client ${commitClientMs.toFixed(3)} + server ${commitServerMs.toFixed(3)})`
    results['floor per paid call: 1 recovery + 3 commits (ms)'] = floorMs.toFixed(2)
    for (const { buyers, cpuMs } of perPaidCall) {
      results[`floor ÷ actual, ${buyers} buyers`] = (floorMs / cpuMs).toFixed(3)
    }
    results['402 path vs bare route, req/s'] =
      `${unpaid.result.toFixed(0)} vs ${bare.result.toFixed(0)} (ratio ${(unpaid.result / bare.result).toFixed(2)})`
    results['402 path vs bare route, app CPU µs/request (target ≥ 0.8)'] =
      `${cpuPerRequest(unpaid).toFixed(0)} vs ${cpuPerRequest(bare).toFixed(0)} (ratio bare ÷ 402 ${(cpuPerRequest(bare) / cpuPerRequest(unpaid)).toFixed(2)})`
    results['Partner Bridge overhead p50 (ms, target ≤ 2)'] =
      `${bridge.overheadMs.toFixed(2)} (bridge ${bridge.bridgeMs.toFixed(2)} vs direct ${bridge.directMs.toFixed(2)})`

    console.log('\nPaid call benchmark (production build)')
    for (const [name, value] of Object.entries(results)) {
      console.log(`  ${name.padEnd(58)} ${value}`)
      recordFigure('paid call', name, value)
    }
  })
})

/**
 * The Partner Bridge's own cost on a call: the driver's fetch (sign the
 * request, the SSRF-guarded client with its limits, parse the answer)
 * against a plain fetch and JSON parse of the same partner URL, alternated,
 * p50 of each.
 */
async function partnerBridgeOverhead() {
  const SAMPLES = 400
  const partner = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ prices: [{ symbol: 'STX', usd: 1.23 }] }))
  })
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve))
  const endpoint = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`
  const clock = await app.container.make(Clock)
  const driver = new PartnerBridgeDriver({
    outbound: await app.container.make(OutboundClient),
    targetOf: async () => ({
      handle: 'bench',
      partnerEndpoint: endpoint,
      key: createHash('sha256').update('bench-secret').digest(),
    }),
    timeoutMs: 5_000,
    maxBytes: 1_048_576,
    now: () => clock.now(),
  })
  const feed = { sourceSettings: { source_path: '/v1/prices' } } as unknown as Feed
  const bridge: number[] = []
  const direct: number[] = []
  try {
    for (let i = 0; i < SAMPLES + 50; i++) {
      let started = performance.now()
      await driver.fetch(feed, { query: {} })
      if (i >= 50) bridge.push(performance.now() - started)
      started = performance.now()
      const answer = await fetch(`${endpoint}/v1/prices`)
      await answer.json()
      if (i >= 50) direct.push(performance.now() - started)
    }
  } finally {
    await new Promise<void>((resolve) => partner.close(() => resolve()))
  }
  const bridgeMs = percentile(bridge, 50)
  const directMs = percentile(direct, 50)
  return { bridgeMs, directMs, overheadMs: bridgeMs - directMs }
}
