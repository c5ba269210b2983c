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
| Under `npm run dev` the dev server (which sets DEV_MODE) runs this file and
| restarts it on a change: then it is the one HTTP server itself, as the dev
| server expects (it waits for this process's "ready" message before it
| watches files; Vite's HMR has one server to connect to), and `ace dev` runs
| the scheduler.
|
*/
import cluster from 'node:cluster'

if (cluster.isPrimary && process.env.DEV_MODE !== 'true') {
  const { runPrimary } = await import('./cluster_primary.js')
  await runPrimary()
} else {
  await import('./http_worker.js')
}
