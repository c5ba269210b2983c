import { inject } from '@adonisjs/core'
import { ChainConfig } from '#chain/define_config'
import { DependencyProbes, checkState } from '#health/dependency_probes'
import { E_DATABASE_UNAVAILABLE } from '#health/exceptions'

/**
 * GET /health/ready, for load balancers: 200 while PostgreSQL answers, 503
 * `database_unavailable` when it does not (every request needs it). The chain
 * node is probed alongside and reported, never a 503: free endpoints and calls
 * paid from credit serve without it, and a short Stacks API outage must not
 * empty the load balancer's pool (docs/operations.md#health-checks).
 */
@inject()
export class ReadinessReport {
  constructor(
    private probes: DependencyProbes,
    private chain: ChainConfig
  ) {}

  async check() {
    const [database, chainNode] = await Promise.all([
      this.probes.database((db) => db.rawQuery('SELECT 1')),
      this.probes.chainNode(),
    ])
    if (!database.ok) {
      throw new E_DATABASE_UNAVAILABLE(this.chain.healthTimeoutMs, checkState(chainNode))
    }
    return { status: 'ready', checks: { database: 'ok', chain_node: checkState(chainNode) } }
  }
}
