import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { ReconcilePayments } from '#payments/reconcile_payments'
import { ConfirmWithdrawals } from '#withdrawals/confirm_withdrawals'
import { registerSellers, walletFrom } from '#tests/simulation/cast'
import { FaultTally } from '#tests/simulation/faults'
import {
  INVARIANTS,
  contextNow,
  ledgerAuditFindings,
  readLedgerBalances,
} from '#tests/simulation/invariants'
import { InvariantChecker, type Verdict } from '#tests/simulation/invariant_checker'
import { SeededRandom } from '#tests/simulation/seeded_random'
import { RECONCILE_OPTIONS, type Run, STEPS } from '#tests/simulation/steps'
import { CREDIT_STEPS } from '#tests/simulation/credit_steps'
import { emptyMarketplace } from '#tests/support/database'
import { World } from '#tests/simulation/world'

const BUYERS = 4
const PARTNERS = 2
/** Drain rounds at the end: mine, reconcile, confirm, then time past the dropped grace. */
const DRAIN_ROUNDS = 8
/** Virtual time between drain rounds: past withdrawals' 10-minute dropped grace. */
const DRAIN_SLOTS = 40

export interface SimulationReport {
  seed: number
  steps: number
  /** One line per step: what it did and what the service answered. */
  trace: string[]
  faults: FaultTally
  /** Step kinds drawn, with their counts. */
  kinds: Map<string, number>
  /** Real time spent per step kind, and in the checks after the steps (`invariants`), in ms. */
  realMs: Map<string, number>
  /** Invariants evaluated (each invariant after each step, and the final checks). */
  invariantChecks: number
  /** I/O still tracked once everything settled (PendingIo.leftover): a leak if not null. */
  leftoverIo: string | null
}

/** A seed whose run broke an invariant (or stopped): where, why, and how to replay it. */
export class SimulationFailure extends Error {
  constructor(
    readonly seed: number,
    readonly step: number | 'end',
    steps: number,
    readonly trace: string[],
    problems: string[]
  ) {
    super(
      [
        `seed ${seed} failed at step ${step}:`,
        ...problems.map((problem) => `  - ${problem}`),
        'last steps:',
        ...trace.slice(-12).map((line) => `  ${line}`),
        `replay: npm run simulate -- --seed ${seed} --steps ${steps}`,
      ].join('\n')
    )
  }
}

/**
 * One seeded run: a fresh database and chain, the cast registered through the
 * API, then `steps` random steps, every invariant checked after each; then
 * everything settled (blocks, jobs, time) and the final books checked against
 * the chain and `ledger:audit`. The same seed draws the same steps and, with
 * the service working, gets the same answers. The database is emptied again
 * at the end.
 */
export async function simulate(
  client: ApiClient,
  options: { seed: number; steps: number }
): Promise<SimulationReport> {
  const { seed, steps } = options
  await emptyMarketplace()
  const rng = new SeededRandom(seed)
  const buyers = Array.from({ length: BUYERS }, () => walletFrom(rng))
  const checker = await InvariantChecker.connect()
  const world = await World.create(client, buyers, PARTNERS).catch(async (error) => {
    await checker.close()
    throw error
  })
  const trace: string[] = []
  const kinds = new Map<string, number>()
  const realMs = new Map<string, number>()
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const startedAt = performance.now()
    try {
      return await work()
    } finally {
      realMs.set(name, (realMs.get(name) ?? 0) + performance.now() - startedAt)
    }
  }
  let invariantChecks = 0
  try {
    const sellers = await registerSellers(world, rng)
    world.endStep()
    const run: Run = {
      world,
      rng,
      buyers,
      sellers,
      tally: new FaultTally(),
      observed: {
        served: [],
        creditCalls: [],
        creditIdentifiers: new Set(),
        refusedRetries: [],
        internalErrors: [],
      },
      presented: [],
      receipts: [],
      outside: [],
      tokens: [],
      step: 0,
    }
    const stepKinds = { ...STEPS, ...CREDIT_STEPS }
    const entries = Object.entries(stepKinds).map(([name, step]) => [name, step.weight] as const)
    // The check after a step runs while the next step does (InvariantChecker); a violation
    // is reported as the step it was found after, with the trace up to that step.
    const failOn = (verdict: Verdict | null, after: string[] = []) => {
      if (verdict && verdict.violations.length > 0) {
        const step = verdict.step as number
        const problems = [...verdict.violations, ...after]
        throw new SimulationFailure(seed, step, step, trace.slice(0, step), problems)
      }
    }
    const capture = () => contextNow(world.devnet, sellers, run.observed)
    for (run.step = 1; run.step <= steps; run.step++) {
      const kind = rng.weighted(entries)
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
      try {
        trace.push(`${run.step} ${await timed(kind, () => stepKinds[kind].run(run))}`)
      } catch (error) {
        failOn(await checker.outcome(), [`(step ${run.step}, already running, then threw too)`])
        trace.push(`${run.step} ${kind}: threw`)
        throw new SimulationFailure(seed, run.step, run.step, trace, [
          String((error as Error).stack),
        ])
      }
      world.endStep()
      if (run.step % ANALYZE_EVERY === 0)
        await timed('(analyze)', () => db.rawQuery(`ANALYZE ${CHECKED_TABLES}`))
      failOn(await timed('(invariants)', () => checker.outcome()))
      await timed('(invariants)', () => checker.begin(run.step, capture))
      invariantChecks += Object.keys(INVARIANTS).length
    }
    failOn(await timed('(invariants)', () => checker.outcome()))

    const final = await timed('(settle and final checks)', async () => {
      const unsettled = await settleEverything(world)
      const audit = await ledgerAuditFindings()
      await checker.begin('end', capture)
      return [
        ...unsettled,
        ...(await checker.outcome())!.violations,
        ...(await chainAgreesWithLedger(run)),
        ...audit.map((finding) => `ledger:audit: ${finding}`),
      ]
    })
    // Everything settled, the chain reconciled with the books, ledger:audit with the chain.
    invariantChecks += Object.keys(INVARIANTS).length + 3
    trace.push(`end: settled, ${final.length} finding(s)`)
    if (final.length > 0) throw new SimulationFailure(seed, 'end', steps, trace, final)
    return {
      seed,
      steps,
      trace,
      faults: run.tally,
      kinds,
      realMs,
      invariantChecks,
      leftoverIo: world.leftoverIo(),
    }
  } finally {
    try {
      await checker.close()
      await world.close()
    } finally {
      // The run's rows go too: the credit migration refuses to roll back over credit accounts.
      await emptyMarketplace()
    }
  }
}

/**
 * Mines, runs both jobs and lets time pass until no payment and no withdrawal
 * is left in flight; what is still open after DRAIN_ROUNDS is a finding.
 */
async function settleEverything(world: World): Promise<string[]> {
  const reconcile = await app.container.make(ReconcilePayments)
  const confirm = await app.container.make(ConfirmWithdrawals)
  for (let round = 0; round < DRAIN_ROUNDS; round++) {
    await world.devnet.mine()
    await world.drive(reconcile.run(RECONCILE_OPTIONS))
    await world.drive(confirm.run())
    await world.devnet.mine()
    world.passTime(DRAIN_SLOTS)
    const open = await openRows(world)
    if (open.length === 0) return []
    if (round === DRAIN_ROUNDS - 1) {
      return open.map((row) => `${row} is still unsettled after draining`)
    }
  }
  return []
}

/**
 * Payments and withdrawals still in flight. A payment whose broadcast never
 * reached the node stays pending (dropped) until its nonce is used, and is
 * never sent again: settled enough, as it cannot charge its buyer.
 */
async function openRows(world: World): Promise<string[]> {
  const inFlight: { txid: string; dropped_at: Date | null }[] = await db
    .from('payments')
    .whereIn('status', ['claimed', 'broadcast'])
    .select('txid', 'dropped_at')
  const payments = []
  for (const row of inFlight) {
    if (row.dropped_at && !(await world.chainKnows(row.txid))) continue
    payments.push(row)
  }
  const withdrawals = await db
    .from('withdrawals')
    .whereIn('status', ['pending', 'broadcast'])
    .select('id')
  return [
    ...payments.map((row) => `payment 0x${row.txid}`),
    ...withdrawals.map((row) => `withdrawal ${row.id}`),
  ]
}

interface HiroTransfer {
  tx_status: string
  fee_rate: string
  token_transfer: { amount: string }
}

/**
 * Steps between two `ANALYZE`s: the planner's statistics keep up with the
 * growing tables as autovacuum keeps them up in a running service (its
 * minute-long nap is longer than a run), so the checks after every step keep
 * plans fit for the data (never analyzed, they estimated a few rows where
 * there were hundreds, and nested loops over them tripled their cost).
 */
const ANALYZE_EVERY = 100
const CHECKED_TABLES =
  'ledger_transactions, ledger_entries, ledger_accounts, payments, withdrawals, providers, feeds, credit_tokens, credit_calls'

/**
 * Settled, the platform wallet on chain holds its genesis funds plus exactly
 * what the ledger says it holds, plus what the facilitator settled (credited
 * to nobody), plus transfers buyers broadcast themselves that it did not
 * redeem, minus what was sent
 * from it by hand. A payment marked failed or released whose transfer was
 * mined anyway would show here as money the books do not know.
 */
async function chainAgreesWithLedger(run: Run): Promise<string[]> {
  const { world } = run
  const balances = await readLedgerBalances(['platform:wallet'])
  const ledger = balances['platform:wallet']
  const facilitator = await db
    .from('payments')
    .where({ purpose: 'facilitator', status: 'confirmed' })
    .sum('amount_microstx as total')
    .first()
  const redeemedRows: { txid: string }[] = await db
    .from('payments')
    .whereIn(
      'txid',
      run.outside.map((transfer) => transfer.txid)
    )
    .where('status', 'confirmed')
    .select('txid')
  const redeemed = new Set(redeemedRows.map((row) => row.txid))
  let outside = 0n
  for (const transfer of run.outside) {
    // The same bytes a buyer handed over before (signatures are deterministic): redeemed, in the books.
    if (redeemed.has(transfer.txid)) continue
    const response = await fetch(`${world.devnet.url}/extended/v1/tx/0x${transfer.txid}`)
    if (response.status === 404) continue
    const tx = (await response.json()) as HiroTransfer
    const amount = tx.tx_status === 'success' ? BigInt(tx.token_transfer.amount) : 0n
    const mined = tx.tx_status === 'success' || tx.tx_status.startsWith('abort')
    if (transfer.from === 'buyer') outside += amount
    else outside -= amount + (mined ? BigInt(tx.fee_rate) : 0n)
  }
  const expected = world.platformGenesis + ledger + BigInt(facilitator?.total ?? 0) + outside
  const onChain = world.devnet.balanceOf(world.payTo)
  return onChain === expected
    ? []
    : [
        `the platform wallet holds ${onChain} µSTX on chain; genesis + ledger + facilitator settlements + outside transfers = ${expected} (${onChain - expected} unaccounted)`,
      ]
}
