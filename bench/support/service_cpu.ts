import { clusterCpuMs, processCpuMs } from './cpu_time.js'

/** The `p`th percentile of `values` (nearest rank). */
export function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

/** What `run` cost the service: its app process's CPU and its PostgreSQL cluster's, in ms. */
export async function serviceCpu<T>(
  pids: { app: number; postmaster: number },
  run: () => Promise<T>
) {
  const appBefore = processCpuMs(pids.app)
  const dbBefore = clusterCpuMs(pids.postmaster)
  const started = performance.now()
  const result = await run()
  return {
    result,
    seconds: (performance.now() - started) / 1000,
    appMs: processCpuMs(pids.app) - appBefore,
    dbMs: clusterCpuMs(pids.postmaster) - dbBefore,
  }
}
