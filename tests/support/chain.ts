import app from '@adonisjs/core/services/app'
import { StacksClient } from '#chain/stacks_client'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { type Devnet, startDevnet } from '#chain/devnet/main'

/**
 * A devnet on a random port (manual block production unless told otherwise),
 * with the app's StacksClient and confirmation watcher pointed at it.
 */
export async function pointAppAtDevnet(options: Parameters<typeof startDevnet>[0] = {}) {
  const devnet = await startDevnet({ port: 0, blockTimeMs: null, hangMs: 500, ...options })
  const client = new StacksClient({ baseUrl: devnet.url, timeoutMs: 1_000 })
  const watcher = new ConfirmationWatcher(client, { firstPollMs: 5, pollIntervalMs: 20 })
  app.container.swap(StacksClient, () => client)
  app.container.swap(ConfirmationWatcher, () => watcher)
  return {
    devnet,
    async cleanup() {
      watcher.stop()
      app.container.restore(StacksClient)
      app.container.restore(ConfirmationWatcher)
      await devnet.stop()
    },
  }
}

export type { Devnet }
