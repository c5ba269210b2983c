import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import { makeSTXTokenTransfer } from '@stacks/transactions'
import { UpstreamSimulator } from '@tollbooth/upstream-simulator'
import env from '#start/env'
import { postmasterOf } from './cpu_time.js'
import { startServiceProcess } from './service_process.js'

/** japa's `cleanup`: run last to first, when the test ends, passed or not. */
type Cleanup = (handler: () => void | Promise<void>) => void

/**
 * The production build in its own process on the bench's migrated database,
 * its built-in feeds reading an upstream simulator, paying on the node at
 * `stacksApiUrl`; both stopped by `cleanup`. `pids` are what its CPU is read
 * from (the app process and its PostgreSQL cluster). BENCH_CPU_PROFILE=<dir>
 * makes the app write a V8 CPU profile there when it stops.
 */
export async function startBenchedService(stacksApiUrl: string, cleanup: Cleanup) {
  const simulator = await new UpstreamSimulator({ hangMs: 500 }).listen()
  cleanup(() => simulator.close())
  const db = await app.container.make('lucid.db')
  const { rows } = await db.rawQuery('SELECT pg_backend_pid() AS pid')
  const connection = db.connection().getWriteClient().client.connectionSettings
  const service = await startServiceProcess({
    databaseUrl: `postgres://${connection.user}:${connection.password}@${connection.host}:${connection.port}/${connection.database}`,
    stacksApiUrl,
    upstreamSimulatorUrl: simulator.url,
    env: {
      APP_KEY: env.get('APP_KEY')!,
      PLATFORM_PRIVATE_KEY: env.get('PLATFORM_PRIVATE_KEY')!,
    },
    cpuProfileDir: process.env.BENCH_CPU_PROFILE
      ? join(process.cwd(), process.env.BENCH_CPU_PROFILE)
      : undefined,
  })
  cleanup(() => service.stop())
  return { url: service.url, pids: { app: service.pid, postmaster: postmasterOf(rows[0].pid) } }
}

/** A devnet STX transfer of `amount` from `senderKey` at `nonce`, signed, with the benches' fee. */
export function benchTransfer(
  senderKey: string,
  nonce: number,
  { recipient, amount }: { recipient: string; amount: bigint }
) {
  return makeSTXTokenTransfer({
    recipient,
    amount,
    senderKey,
    network: 'devnet',
    fee: 1_000n,
    nonce: BigInt(nonce),
  })
}
