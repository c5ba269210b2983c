import app from '@adonisjs/core/services/app'
import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { StacksClient } from '#chain/stacks_client'
import { ChainConfig } from '#chain/define_config'
import { type CancelTimeout, Clock } from '#core/clock'

/** A dependency's answer, or that it gave none in time. */
export type Probe<T> = { ok: true; value: T } | { ok: false }

/** A probe as the health routes' `checks` name it. */
export function checkState(probe: Probe<unknown>): 'ok' | 'unreachable' {
  return probe.ok ? 'ok' : 'unreachable'
}

/**
 * Asks PostgreSQL and the Stacks node whether they answer, each within
 * `healthTimeoutMs` (config/chain.ts) by the injected Clock, so a dead
 * dependency is reported quickly instead of hanging the probe. GET /health,
 * GET /health/ready and the chain node gauge of /metrics ask through it.
 */
@inject()
export class DependencyProbes {
  constructor(
    private db: Database,
    private stacks: StacksClient,
    private chain: ChainConfig,
    private clock: Clock
  ) {}

  /** What `query` reads from the database through the app's pool. */
  async database<T>(query: (db: Database) => Promise<T>): Promise<Probe<T>> {
    try {
      return { ok: true, value: await this.#within(query(this.db)) }
    } catch {
      return { ok: false }
    }
  }

  async chainNode(): Promise<Probe<null>> {
    try {
      await this.stacks.getInfo(this.chain.healthTimeoutMs)
      return { ok: true, value: null }
    } catch {
      return { ok: false }
    }
  }

  /**
   * `work`, or a rejection once the time-out has passed by the clock. The
   * query itself is not cancelled (a pg query takes no signal): its
   * connection comes back to the pool when the server or the socket ends it.
   */
  #within<T>(work: Promise<T>): Promise<T> {
    const ms = this.chain.healthTimeoutMs
    let cancel: CancelTimeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      cancel = this.clock.setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
    })
    return Promise.race([work, timeout]).finally(() => cancel?.())
  }
}

/**
 * Whether the Stacks node answers now: for a `tollbooth_chain_node_up` gauge
 * that /metrics reads on each scrape. The chain node's state is reported,
 * never a reason to take the instance out of a load balancer (docs/operations.md#health-checks).
 */
export async function chainNodeUp(): Promise<boolean> {
  const probes = await app.container.make(DependencyProbes)
  const node = await probes.chainNode()
  return node.ok
}
