import { inject } from '@adonisjs/core'
import { PlatformWallet } from '#chain/platform_wallet'
import { ChainConfig } from '#chain/define_config'
import { DependencyProbes, checkState } from '#health/dependency_probes'

/** /health's `version`: a constant of the spec, not the package's version. */
const HEALTH_VERSION = '2.0.0'

/**
 * GET /health, the spec's public health object: always 200, `status` saying
 * whether the database and the chain node answer. Load balancers ask
 * GET /health/ready instead (ReadinessReport).
 */
@inject()
export class HealthReport {
  constructor(
    private probes: DependencyProbes,
    private wallet: PlatformWallet,
    private chain: ChainConfig
  ) {}

  async build() {
    const [database, chainNode] = await Promise.all([
      this.probes.database(async (db) => {
        const row = await db.from('feeds').where('status', 'active').count('* as total').first()
        return Number(row?.total ?? 0)
      }),
      this.probes.chainNode(),
    ])
    const reasons = [
      ...(database.ok ? [] : ['database not answering']),
      ...(chainNode.ok ? [] : ['Stacks node not answering']),
    ]

    return {
      status: reasons.length === 0 ? 'ok' : 'degraded',
      ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
      version: HEALTH_VERSION,
      provider: this.wallet.address,
      network: this.chain.network.name,
      network_id: this.chain.network.caip2,
      feeds_available: database.ok ? database.value : 0,
      payment_protocol: 'x402',
      checks: {
        database: checkState(database),
        chain_node: checkState(chainNode),
      },
    }
  }
}
