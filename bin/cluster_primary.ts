import cluster, { type Worker } from 'node:cluster'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { prettyPrintError } from '@adonisjs/core'
import { printStartupFailure } from './startup_failure.js'
import { processBudget } from '../app/core/process_budget.js'

type Role = { kind: 'web'; slot: number } | { kind: 'scheduler' }

const nameOf = (role: Role) => (role.kind === 'web' ? `web-${role.slot}` : 'scheduler')

/** bin/console.ts (bin/console.js once built): the scheduler is `node ace scheduler:run`. */
const consoleEntry = fileURLToPath(
  new URL(`./console${extname(fileURLToPath(import.meta.url))}`, import.meta.url)
)

/**
 * A worker that keeps dying soon after it started (within `stableMs`, up or
 * not yet) is started again at once the first time, then after 1 s, 2 s, 4 s
 * … up to 30 s, so one that cannot run (its database down, a crash on every
 * request) does not spin; a worker that ran longer starts the count again.
 */
const RESTART = { firstDelayMs: 1_000, maxDelayMs: 30_000, stableMs: 60_000 }

function log(message: string) {
  console.error(`${new Date().toISOString()} [primary ${process.pid}] ${message}`)
}

/**
 * Runs the instance (docs/operations.md#processes): WEB_CONCURRENCY HTTP
 * workers on the one port and exactly one scheduler, each a cluster worker
 * named by TOLLBOOTH_PROCESS (its metrics' `process` label). The first web
 * worker starts alone: without DATABASE_URL it starts the embedded
 * PostgreSQL the others then reuse, and a configuration it refuses stops the
 * instance before more start. On SIGTERM (or SIGINT) every worker is asked
 * to stop at once — an HTTP worker stops accepting connections and finishes
 * the requests in flight first (bin/http_drain.ts) — except that without
 * DATABASE_URL the first web worker, which owns the embedded PostgreSQL,
 * stops after the others; the primary exits once they all have. A worker
 * that dies once the instance is up is started again at once the first time,
 * then with a growing delay while it keeps dying soon after starting
 * (RESTART).
 */
export async function runPrimary() {
  let budget: ReturnType<typeof processBudget>
  let embeddedDatabase: boolean
  try {
    // Validated here once: a bad variable stops the instance in one line before any worker starts.
    const { default: env } = await import('../start/env.js')
    embeddedDatabase = !env.get('DATABASE_URL')
    budget = processBudget({
      webWorkers: env.get('WEB_CONCURRENCY'),
      maxConnections: env.get('DB_MAX_CONNECTIONS'),
      poolMax: env.get('DB_POOL_MAX'),
    })
  } catch (error) {
    process.exitCode = 1
    if (!printStartupFailure(error)) prettyPrintError(error)
    return
  }
  if (budget.overBudget) {
    console.error(`Tollbooth cannot start, invalid configuration: ${budget.overBudget}`)
    process.exitCode = 1
    return
  }

  const { answerWorkerScrapes } = await import('../app/metrics/scrape.js')
  answerWorkerScrapes()

  /** Each live worker: its role, when it was started, whether in place of one that died, whether up. */
  const workers = new Map<Worker, { role: Role; startedAt: number; again: boolean; up: boolean }>()
  /** By role name: how many times in a row it died soon after starting. */
  const quickExits = new Map<string, number>()
  const pendingStarts = new Set<NodeJS.Timeout>()
  let stopping = false

  const start = (role: Role, again = false) => {
    if (role.kind === 'scheduler') {
      cluster.setupPrimary({ exec: consoleEntry, args: ['scheduler:run'] })
    } else {
      cluster.setupPrimary({ exec: process.argv[1], args: [] })
    }
    const worker = cluster.fork({ TOLLBOOTH_PROCESS: nameOf(role) })
    const entry = { role, startedAt: Date.now(), again, up: false }
    workers.set(worker, entry)
    worker.once(role.kind === 'web' ? 'listening' : 'online', () => {
      entry.up = true
      if (again) log(`${nameOf(role)} is up again (pid ${worker.process.pid})`)
    })
    return worker
  }

  cluster.on('exit', (worker, code, signal) => {
    const { role, startedAt, again, up } = workers.get(worker)!
    workers.delete(worker)
    const name = nameOf(role)
    const how = signal ? `signal ${signal}` : `code ${code}`
    if (stopping) return log(`${name} stopped (${how})`)
    // At the instance's start a worker that never came up is a configuration it refuses.
    if (!up && !again) {
      log(`${name} exited (${how}) before it was up: stopping`)
      process.exitCode = 1
      void stop()
      return
    }
    const quick = Date.now() - startedAt < RESTART.stableMs
    const inARow = quick ? (quickExits.get(name) ?? 0) + 1 : 0
    quickExits.set(name, inARow)
    if (inARow <= 1) {
      log(`${name} exited (${how}): starting another`)
      start(role, true)
      return
    }
    const delayMs = Math.min(RESTART.maxDelayMs, RESTART.firstDelayMs * 2 ** (inARow - 2))
    log(
      `${name} exited (${how}), ${inARow} times in a row soon after starting: starting another in ${delayMs / 1_000} s`
    )
    const timer = setTimeout(() => {
      pendingStarts.delete(timer)
      if (!stopping) start(role, true)
    }, delayMs)
    pendingStarts.add(timer)
  })

  const stop = async () => {
    if (stopping) return
    stopping = true
    log('stopping')
    for (const timer of pendingStarts) clearTimeout(timer)
    const first = embeddedDatabase
      ? [...workers].find(([, { role }]) => role.kind === 'web' && role.slot === 1)?.[0]
      : undefined
    await stopWorkers([...workers.keys()].filter((worker) => worker !== first))
    if (first) await stopWorkers([first])
  }
  // Every time: a signal repeated while the workers drain must not kill the primary under them.
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)

  await listening(start({ kind: 'web', slot: 1 }))
  const others = []
  for (let slot = 2; slot <= budget.webWorkers; slot++) others.push(start({ kind: 'web', slot }))
  start({ kind: 'scheduler' })
  await Promise.all(others.map(listening))
  if (!stopping) log(`ready: ${budget.webWorkers} HTTP worker(s) and the scheduler`)
}

/** Resolves once the worker listens, or has exited. */
function listening(worker: Worker) {
  return new Promise<void>((resolve) => {
    worker.once('listening', () => resolve())
    worker.once('exit', () => resolve())
  })
}

function stopWorkers(workers: Worker[]) {
  return Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve()
          worker.once('exit', () => resolve())
          worker.process.kill('SIGTERM')
        })
    )
  )
}
