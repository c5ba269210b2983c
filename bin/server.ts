/*
|--------------------------------------------------------------------------
| `npm start`: the primary of a node:cluster
|--------------------------------------------------------------------------
|
| This process serves nothing itself: it runs WEB_CONCURRENCY HTTP workers
| (bin/http_worker.ts) sharing the port, and one scheduler (`node ace
| scheduler:run`), all as cluster workers (bin/cluster_primary.ts,
| docs/operations.md#processes).
|
*/
import cluster from 'node:cluster'

if (cluster.isPrimary) {
  const { runPrimary } = await import('./cluster_primary.js')
  await runPrimary()
} else {
  await import('./http_worker.js')
}
