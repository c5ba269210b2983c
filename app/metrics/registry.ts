import cluster from 'node:cluster'
import { AggregatorRegistry, Registry, collectDefaultMetrics } from 'prom-client'

/** The one prefix of every metric this service exports (docs/operations.md#metrics). */
export const PREFIX = 'tollbooth_'

/**
 * This process's metrics. Under `npm start` each process is a cluster worker
 * named by TOLLBOOTH_PROCESS (`web-1`, …, `scheduler`, set by bin/cluster_primary.ts):
 * the process-level metrics (CPU, memory, event-loop lag) carry it as the
 * `process` label, since averaging one worker's lag with another's hides the
 * stuck one; the service's own counters are summed across workers.
 */
export const registry = new Registry()

const processName = cluster.isWorker ? process.env.TOLLBOOTH_PROCESS : undefined

collectDefaultMetrics({
  register: registry,
  prefix: PREFIX,
  labels: processName ? { process: processName } : {},
})

// A worker answers the primary's requests for its metrics (prom-client's
// cluster listeners, added by constructing an AggregatorRegistry once).
if (processName) {
  AggregatorRegistry.setRegistries(registry)
  void new AggregatorRegistry()
}
