import app from '@adonisjs/core/services/app'
import { StacksClient } from '#chain/stacks_client'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { CachedPayerAccounts } from '#payments/payer_accounts'
import { type Devnet, startDevnet } from '#chain/devnet/main'

/**
 * A devnet on a random port (manual block production unless told otherwise),
 * with the app's StacksClient, confirmation watcher and payer look-ups pointed at it.
 */
export async function pointAppAtDevnet(options: Parameters<typeof startDevnet>[0] = {}) {
  const devnet = await startDevnet({ port: 0, blockTimeMs: null, hangMs: 500, ...options })
  const client = new StacksClient({ baseUrl: devnet.url, timeoutMs: 1_000 })
  const watcher = new ConfirmationWatcher(client, { firstPollMs: 5, pollIntervalMs: 20 })
  app.container.swap(StacksClient, () => client)
  app.container.swap(ConfirmationWatcher, () => watcher)
  app.container.swap(
    CachedPayerAccounts,
    () => new CachedPayerAccounts(client, { ttlMs: 0, maxEntries: 100, now: Date.now })
  )
  return {
    devnet,
    async cleanup() {
      watcher.stop()
      app.container.restore(StacksClient)
      app.container.restore(ConfirmationWatcher)
      app.container.restore(CachedPayerAccounts)
      await devnet.stop()
    },
  }
}

export type { Devnet }
