import 'reflect-metadata'
import cluster from 'node:cluster'
import { Ignitor } from '@adonisjs/core'

export const APP_ROOT = new URL('../', import.meta.url)

/**
 * The application, as every entry point (server, console, tests) boots it:
 * files under the app root are imported relative to it, the environment is
 * validated before anything else, and SIGTERM shuts it down gracefully.
 */
export function createIgnitor() {
  return new Ignitor(APP_ROOT, {
    importer: (filePath: string) => {
      if (filePath.startsWith('./') || filePath.startsWith('../')) {
        return import(new URL(filePath, APP_ROOT).href)
      }
      return import(filePath)
    },
  }).tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    app.listen('SIGTERM', async () => {
      await app.terminate()
      // A cluster worker of `npm start` (bin/cluster_primary.ts) is kept alive by its IPC channel.
      if (cluster.isWorker) process.disconnect()
    })
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
    // Ctrl-C signals every process of the terminal's group: a worker of `npm start` leaves it to
    // the primary, which stops the workers with SIGTERM, letting them drain.
    app.listenIf(cluster.isWorker && !app.managedByPm2, 'SIGINT', () => {})
  })
}
