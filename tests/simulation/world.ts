import type { ServerResponse } from 'node:http'
import { setImmediate as nextTurn } from 'node:timers/promises'
import app from '@adonisjs/core/services/app'
import type { ApiClient } from '@japa/api-client'
import { type Devnet, startDevnet } from '@tollbooth/devnet'
import type { UpstreamSimulator } from '@tollbooth/upstream-simulator'
import { PlatformWallet } from '#chain/platform_wallet'
import { Clock } from '#core/clock'
import { FeedsConfig, sources as driverFactories } from '#feeds/define_config'
import { FeedCache } from '#feeds/feed_cache'
import { FeedDirectory } from '#feeds/feed_directory'
import { FeedReader } from '#feeds/feed_reader'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import { FeedStats } from '#feeds/feed_stats'
import sources from '#feeds/services/main'
import { OutboundConfig } from '#outbound/define_config'
import { OutboundClient } from '#outbound/outbound_client'
import { pointAppAtChain } from '#tests/support/chain'
import { ManualClock } from '#tests/support/clock'
import { PendingIo } from '#tests/simulation/pending_io'
import { type LocalSite, sendJson, startLocalSite } from '#tests/support/local_site'
import { pointBuiltinFeedsAtSimulator } from '#tests/support/paid_calls'
import { type PartnerServer, startPartnerServer } from '#tests/support/partner_server'
import { PLATFORM_FUNDS, withoutWithdrawalDelays } from '#tests/support/withdrawals'

/** Where every run's virtual time starts (2026-11-22T18:26:40Z). */
const START_MS = 1_795_300_000_000
/**
 * Every step starts on a multiple of this many virtual ms from START_MS, so
 * what caches hold at a step's start never depends on how long the real I/O
 * of earlier steps took. 19 s puts every cache expiry of the built-in feeds
 * (TTLs 30 s–15 min, stale windows 2 × TTL) at least 3 s away from a step's
 * start, beyond the drift of a step's own first requests.
 */
export const SLOT_MS = 19_000
/**
 * The confirmation watcher's polls: the first soon after a broadcast (blocks
 * are mined as soon as a transaction is accepted, so it finds it mined), then
 * about a block time apart, so a payment whose block never comes in the step
 * (held back, or a broadcast the node never took) waits out its 25 s budget in
 * fifty polls.
 */
const CONFIRMATION_POLLS = { firstPollMs: 5, pollIntervalMs: 500 }
/** Real ms with I/O in flight and nothing moving after which virtual time moves anyway. */
const STALL_MS = 250
/** Real ms of event-loop turns waiting on untracked work before waiting in 1 ms steps. */
const SPIN_REAL_MS = 5
/** Real ms a step may go on with nothing due on the clock before it fails as hung. */
const HUNG_REAL_MS = 30_000
/** A step still running after this much virtual time is a hang, reported as a failure. */
const STEP_LIMIT_MS = 10 * 60_000
/** A held request (devnet or upstream time-out fault) is dropped after this much virtual time. */
const HANG_MS = 500
/**
 * Time-outs (on the clock) of the drivers calling partners and mirrored URLs
 * (their hangs never answer: the time-out ends them), and of the built-in
 * feeds' upstream calls (the simulator drops a held one after HANG_MS first).
 */
const SOURCE_TIMEOUT_MS = 1_000
const UPSTREAM_TIMEOUT_MS = 2_000

export const BUYER_FUNDS = 1_000_000_000_000n

export type SiteBehaviour = 'json' | 'error500' | 'not_json' | 'hang'

/** A wallet the simulation holds the key of. */
export interface Wallet {
  key: string
  address: string
}

export interface MirrorSite {
  site: LocalSite
  url: string
  behaviour: SiteBehaviour
  /** Bumped by every successful fetch: each poll sees a new document. */
  version: number
}

/**
 * Everything one seed's run drives, in this process: a ManualClock every
 * service reads, a devnet on a free port whose clock and hold timers are that
 * clock, the app's chain services pointed at it, the upstream simulator, one
 * partner server per Partner Bridge seller and a site serving the mirrored
 * feed. Virtual time moves only inside `drive` and `endStep`.
 */
export class World {
  #chain?: Awaited<ReturnType<typeof pointAppAtChain>>
  #upstream!: Awaited<ReturnType<typeof pointBuiltinFeedsAtSimulator>>
  #io!: PendingIo
  #undo!: Undo[]
  #stepStartedAt = START_MS
  /** False while a fault holds blocks back for the current step. */
  #blocksFlowing = true
  /** The platform wallet's balance on the new chain, before anything happened. */
  readonly platformGenesis: bigint

  private constructor(
    readonly client: ApiClient,
    readonly clock: ManualClock,
    readonly devnet: Devnet,
    readonly payTo: string,
    readonly partners: PartnerServer[],
    readonly mirror: MirrorSite
  ) {
    this.platformGenesis = devnet.balanceOf(payTo)
  }

  static async create(client: ApiClient, funded: Wallet[], partnerCount: number): Promise<World> {
    const undo: Undo[] = []
    try {
      return await World.#build(client, funded, partnerCount, undo)
    } catch (error) {
      await undoAll(undo)
      throw error
    }
  }

  /** Builds the world, pushing onto `undo` how to take back each thing as it is set up. */
  static async #build(
    client: ApiClient,
    funded: Wallet[],
    partnerCount: number,
    undo: Undo[]
  ): Promise<World> {
    const clock = new ManualClock(START_MS)
    app.container.swap(Clock, () => clock)
    undo.push(() => app.container.restore(Clock))
    // The app's client is a singleton holding the Clock it was made with (an
    // earlier seed's, or the real one): the drivers' time-outs need this run's.
    const outbound = new OutboundClient({ ...(await app.container.make(OutboundConfig)), clock })
    app.container.swap(OutboundClient, () => outbound)
    undo.push(() => app.container.restore(OutboundClient))
    const platform = await app.container.make(PlatformWallet)
    const payTo = platform.address
    const io = new PendingIo()
    undo.push(() => io.stop())
    io.start()
    const hangTimer = (callback: () => void, ms: number) => clock.setTimeout(callback, ms)
    const devnet = await startDevnet({
      port: 0,
      blockTimeMs: 0,
      now: () => clock.now(),
      hangMs: HANG_MS,
      hangTimer,
      fund: [
        { address: payTo, amount: PLATFORM_FUNDS },
        ...funded.map((wallet) => ({ address: wallet.address, amount: BUYER_FUNDS })),
      ],
    })
    undo.push(() => devnet.stop())
    const partners: PartnerServer[] = []
    for (let index = 0; index < partnerCount; index++) {
      const partner = await startPartnerServer({ routes: ['/v1/prices'], now: () => clock.now() })
      undo.push(() => partner.close())
      partners.push(partner)
    }
    const mirror = await startMirrorSite()
    undo.push(() => mirror.site.close())
    const world = new World(client, clock, devnet, payTo, partners, mirror)
    world.#io = io
    world.#undo = undo
    world.#upstream = await pointBuiltinFeedsAtSimulator({
      timeoutMs: UPSTREAM_TIMEOUT_MS,
      simulator: { now: () => clock.now(), hangMs: HANG_MS, hangTimer },
    })
    undo.push(() => world.#upstream.restore())
    undo.push(withoutWithdrawalDelays())
    undo.push(() => world.#dropServices())
    await world.#buildServices()
    return world
  }

  get upstream(): UpstreamSimulator {
    return this.#upstream.simulator
  }

  /**
   * Runs a step's work to its end, moving virtual time only while the whole
   * process waits on the clock — no request or query in flight (PendingIo) —
   * and then straight to the next timer due: how far time moves never depends
   * on how fast the machine is, and no real time is spent waiting for it. A
   * request held unanswered (a hang fault) ends the same way: by the server's
   * hold timer or the caller's `clock.deadline`, both on this clock.
   *
   * Two fallbacks wait on the wall clock. Something in flight with nothing
   * moving for STALL_MS real ms (a query waiting on a lock that work waiting
   * on the clock holds) moves time to the next timer due as well. Nothing due
   * on the clock while the work has not ended is waited out (work resumed by
   * what PendingIo does not track: a connection being opened, a library's own
   * timer) — turn by turn of the event loop for the first SPIN_REAL_MS, by
   * when most of it is back, then in 1 ms steps; after HUNG_REAL_MS of that
   * the step fails as hung.
   */
  async drive<T>(work: Promise<T>): Promise<T> {
    let settled = false
    const tracked = work.finally(() => {
      settled = true
    })
    tracked.catch(() => {})
    const startedAt = this.clock.now()
    let nothingDueSince: number | null = null
    for (;;) {
      const state = await this.#io.settle(STALL_MS)
      if (settled) break
      if (this.clock.now() - startedAt > STEP_LIMIT_MS) {
        throw new Error(`the step still runs after ${STEP_LIMIT_MS / 60_000} virtual minutes`)
      }
      const next = this.clock.nextDueAt
      if (next !== null) {
        nothingDueSince = null
        this.clock.advance(next - this.clock.now())
        continue
      }
      nothingDueSince ??= performance.now()
      if (performance.now() - nothingDueSince > HUNG_REAL_MS) {
        const inFlight =
          state === 'stalled' ? `in flight: ${this.#io.leftover()}` : 'nothing in flight'
        throw new Error(
          `hung: ${inFlight}, nothing due on the clock for ${HUNG_REAL_MS / 1_000} s of real time`
        )
      }
      const waiting = performance.now() - nothingDueSince
      await Promise.race([tracked, waiting < SPIN_REAL_MS ? nextTurn() : realMs(1)])
    }
    return tracked
  }

  /** Whether the devnet has the transaction: pending, mined, or replaced by fee. */
  async chainKnows(txid: string): Promise<boolean> {
    const response = await fetch(`${this.devnet.url}/extended/v1/tx/0x${txid}`)
    await response.body?.cancel()
    return response.status !== 404
  }

  /** Holds blocks back until the step ends (transactions wait in the mempool). */
  delayBlocks() {
    this.#blocksFlowing = false
    this.devnet.setBlockTime(null)
  }

  /**
   * Ends a step: faults not used up are dropped, blocks flow again (the
   * mempool waits for the next transaction or a mining step), and virtual
   * time moves to the start of the next free slot.
   */
  endStep() {
    this.devnet.faults.clear()
    this.upstream.clearFaults()
    for (const partner of this.partners) partner.behaviour = 'json'
    this.mirror.behaviour = 'json'
    if (!this.#blocksFlowing) this.devnet.setBlockTime(0)
    this.#blocksFlowing = true
    const slots = Math.max(1, Math.ceil((this.clock.now() - this.#stepStartedAt) / SLOT_MS))
    this.#stepStartedAt += slots * SLOT_MS
    this.clock.advance(this.#stepStartedAt - this.clock.now())
  }

  /** Moves virtual time on by whole slots (caches expire, holds end, leases run out). */
  passTime(slots: number) {
    this.#stepStartedAt += slots * SLOT_MS
    this.clock.advance(this.#stepStartedAt - this.clock.now())
  }

  /**
   * A process crash between two steps: every in-memory service — the
   * confirmation watcher, payer look-ups, settlement, feed caches, the feed
   * directory, the reader's shared fetches, the source drivers — is dropped
   * and built anew; only the database and the chain remain.
   */
  async crash() {
    await this.#dropServices()
    await this.#buildServices()
  }

  /** What PendingIo still tracks: nothing should be, once a run has settled. */
  leftoverIo() {
    return this.#io.leftover()
  }

  /** Takes back everything `create` set up, last first. */
  async close() {
    await undoAll(this.#undo)
  }

  /** Takes back what `#buildServices` set up (any part of it). */
  async #dropServices() {
    this.#chain?.restore()
    await sources.restore()
    for (const binding of [FeedReader, FeedDirectory, FeedCache]) app.container.restore(binding)
  }

  async #buildServices() {
    this.#chain = await pointAppAtChain(this.devnet.url, {
      payerAccountTtlMs: 3_000,
      confirmationPolls: CONFIRMATION_POLLS,
    })
    const config = await app.container.make(FeedsConfig)
    const cache = new FeedCache(this.clock, config.cache)
    const directory = new FeedDirectory(this.clock, config.directory)
    const reader = new FeedReader(
      await app.container.make(FeedSourceManager),
      cache,
      await app.container.make(FeedStats),
      this.clock
    )
    app.container.swap(FeedCache, () => cache)
    app.container.swap(FeedDirectory, () => directory)
    app.container.swap(FeedReader, () => reader)
    sources.fake(
      'partner_bridge',
      driverFactories.partnerBridge({ timeoutMs: SOURCE_TIMEOUT_MS, maxBytes: 1_048_576 })
    )
    sources.fake(
      'codehost_raw',
      driverFactories.urlMirror({ timeoutMs: SOURCE_TIMEOUT_MS, maxBytes: 1_048_576 })
    )
  }
}

type Undo = () => unknown

/** Runs the undo steps, last first, each even when an earlier one failed. */
async function undoAll(undo: Undo[]) {
  const failures: unknown[] = []
  for (const step of undo.splice(0).reverse()) {
    try {
      await step()
    } catch (error) {
      failures.push(error)
    }
  }
  if (failures.length > 0)
    throw new AggregateError(failures, 'the world was not taken down cleanly')
}

/** A real-time wait: for what the clock does not drive. */
function realMs(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

async function startMirrorSite(): Promise<MirrorSite> {
  const mirror = { behaviour: 'json', version: 0 } as MirrorSite
  mirror.site = await startLocalSite((_request, response: ServerResponse) => {
    switch (mirror.behaviour) {
      case 'hang':
        return
      case 'error500':
        return sendJson(response, { error: 'boom' }, 500)
      case 'not_json':
        response.writeHead(200, { 'content-type': 'text/html' })
        return response.end('<html>moved</html>')
      default:
        mirror.version++
        return sendJson(response, { version: mirror.version, btc_usd: 97_000 + mirror.version })
    }
  })
  mirror.url = `http://127.0.0.1:${mirror.site.port}/prices.json`
  return mirror
}
