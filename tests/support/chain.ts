import app from '@adonisjs/core/services/app'
import { StacksClient } from '#chain/stacks_client'
import { type Devnet, startDevnet } from '#chain/devnet/main'

/**
 * A devnet on a random port, with manual block production,
 * and the app's StacksClient pointed at it for the duration.
 */
export async function pointAppAtDevnet(options: Parameters<typeof startDevnet>[0] = {}) {
  const devnet = await startDevnet({ port: 0, blockTimeMs: null, hangMs: 500, ...options })
  app.container.swap(
    StacksClient,
    () => new StacksClient({ baseUrl: devnet.url, timeoutMs: 1_000 })
  )
  return {
    devnet,
    async cleanup() {
      app.container.restore(StacksClient)
      await devnet.stop()
    },
  }
}

export type { Devnet }
