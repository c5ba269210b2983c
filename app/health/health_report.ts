import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import { ChainConfig } from '#chain/define_config'
import { type CancelTimeout, Clock } from '#core/clock'

/** /health's `version`: a constant of the spec, not the package's version. */
const HEALTH_VERSION = '2.0.0'

export type CheckResult = { ok: true } | { ok: false; reason: string }

/**
 * GET /health. Probes the database and the chain node concurrently, each
 * bounded by a time-out (by the injected Clock), so a dead dependency reports
 * "degraded" quickly instead of hanging the probe.
 */
@inject()
export class HealthReport {
  constructor(
    private db: Database,
    private stacks: StacksClient,
    private wallet: PlatformWallet,
    private chain: ChainConfig,
    private clock: Clock
  ) {}

  async build() {
    const chain = this.chain
    const [database, chainNode] = await Promise.all([
      this.#checkDatabase(chain.healthTimeoutMs),
      this.#checkChainNode(chain.healthTimeoutMs),
    ])
    const reasons = [database, chainNode].flatMap((check) => (check.ok ? [] : [check.reason]))

    return {
      status: reasons.length === 0 ? 'ok' : 'degraded',
      ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
      version: HEALTH_VERSION,
      provider: this.wallet.address,
      network: chain.network.name,
      network_id: chain.network.caip2,
      feeds_available: database.ok ? database.feeds : 0,
      payment_protocol: 'x402',
      checks: {
        database: database.ok ? 'ok' : 'unreachable',
        chain_node: chainNode.ok ? 'ok' : 'unreachable',
      },
    }
  }

  async #checkDatabase(
    timeoutMs: number
  ): Promise<{ ok: true; feeds: number } | { ok: false; reason: string }> {
    try {
      const row = await this.#within(
        this.db.from('feeds').where('status', 'active').count('* as total').first(),
        timeoutMs
      )
      return { ok: true, feeds: Number(row?.total ?? 0) }
    } catch {
      return { ok: false, reason: 'database not answering' }
    }
  }

  async #checkChainNode(timeoutMs: number): Promise<CheckResult> {
    try {
      await this.stacks.getInfo(timeoutMs)
      return { ok: true }
    } catch {
      return { ok: false, reason: 'Stacks node not answering' }
    }
  }

  /** `work`, or a rejection once `ms` have passed by the clock. */
  #within<T>(work: Promise<T>, ms: number): Promise<T> {
    let cancel: CancelTimeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      cancel = this.clock.setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
    })
    return Promise.race([work, timeout]).finally(() => cancel?.())
  }
}
