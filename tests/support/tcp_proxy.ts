import { createServer, connect, type AddressInfo, type Socket } from 'node:net'
import app from '@adonisjs/core/services/app'
import { Database } from '@adonisjs/lucid/database'
import type { DatabaseConfig, PostgreConfig } from '@adonisjs/lucid/types/database'
import { frameworkSetting } from '#tests/support/config'

export interface TcpProxy {
  port: number
  /** Ends every connection through the proxy and refuses new ones: the server is gone from the network. */
  cut(): void
  /** Keeps every connection open but passes nothing on, either way: a server that never answers. */
  blackhole(): void
  close(): Promise<void>
}

/** A TCP proxy on 127.0.0.1 in front of `target`, forwarding until told otherwise. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>()
  let mode: 'forward' | 'cut' | 'blackhole' = 'forward'

  const server = createServer((client) => {
    client.on('error', () => {})
    if (mode === 'cut') return client.destroy()
    if (mode === 'blackhole') return void client.resume()
    const upstream = connect(target.port, target.host)
    upstream.on('error', () => {})
    const pair = { client, upstream }
    pairs.add(pair)
    client.pipe(upstream).pipe(client)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('close', end)
    upstream.on('close', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))

  const cut = () => {
    mode = 'cut'
    for (const { client } of pairs) client.destroy()
  }
  return {
    port: (server.address() as AddressInfo).port,
    cut,
    blackhole() {
      mode = 'blackhole'
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream)
        upstream.unpipe(client)
        client.resume()
        upstream.resume()
      }
    },
    async close() {
      cut()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/**
 * A Database like the app's (same server, user and database) whose pool
 * reaches PostgreSQL through a TCP proxy the test can cut; swap it in with
 * `app.container.swap(Database, () => proxied.db)`.
 */
export async function databaseBehindProxy() {
  const database = frameworkSetting<DatabaseConfig>('database')
  const config = database.connections[database.connection] as PostgreConfig
  const server = serverOf(config.connection)
  const proxy = await startTcpProxy(server)
  const connection =
    typeof config.connection === 'object' && !config.connection.connectionString
      ? { ...config.connection, host: '127.0.0.1', port: proxy.port }
      : { connectionString: throughProxy(server.url!, proxy.port) }
  const db = new Database(
    {
      connection: 'proxied',
      connections: { proxied: { ...config, connection, pool: { min: 0, max: 2 } } },
    },
    await app.container.make('logger'),
    await app.container.make('emitter')
  )
  return {
    db,
    proxy,
    /** Closes the proxy first, so a query it holds ends and the pool can close. */
    async close() {
      await proxy.close()
      await db.manager.closeAll()
    },
  }
}

function serverOf(connection: PostgreConfig['connection']): {
  host: string
  port: number
  url?: URL
} {
  if (typeof connection === 'object' && !connection.connectionString) {
    return { host: connection.host ?? '127.0.0.1', port: connection.port ?? 5432 }
  }
  const url = new URL(typeof connection === 'string' ? connection : connection!.connectionString!)
  return { host: url.hostname, port: Number(url.port || 5432), url }
}

function throughProxy(url: URL, port: number) {
  const proxied = new URL(url)
  proxied.hostname = '127.0.0.1'
  proxied.port = String(port)
  return proxied.toString()
}
