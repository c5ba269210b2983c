import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { MigrationRunner } from '@adonisjs/lucid/migration'
import { PlatformWallet } from '#chain/platform_wallet'
import type { Devnet } from '@tollbooth/devnet'
import type { UpstreamSimulator } from '@tollbooth/upstream-simulator'
import { ChainConfig } from '#chain/define_config'
import { FeedsConfig } from '#feeds/define_config'
import { Clock } from '#core/clock'
import { displayPath } from '#core/display_path'
import { isPortInUse } from '#core/port_in_use'

const PLATFORM_FUNDING = 1_000_000_000_000n

/**
 * `npm run dev`: the whole service on its embedded defaults. This process owns
 * the long-lived pieces (the embedded PostgreSQL cluster, the local devnet,
 * the upstream simulator the built-in feeds read, the scheduled jobs of
 * start/scheduler.ts), so restarting the HTTP server on a code change keeps
 * the chain and the data. Both outlive this command too: the database and the
 * devnet's chain are kept under tmp/ (`node ace dev:reset` deletes them
 * together). It refuses to start when its port is taken: the HTTP server
 * would silently take a random one while PUBLIC_URL (payment requirements,
 * sign-in messages) still names the taken port.
 */
export default class Dev extends BaseCommand {
  static commandName = 'dev'
  static description =
    'Run Tollbooth locally: embedded PostgreSQL, migrations, the local Stacks devnet and the HTTP server (restarts on change)'

  static options: CommandOptions = { startApp: true, staysAlive: true }

  #devnet?: Devnet
  #simulator?: UpstreamSimulator

  async run() {
    // Not a top-level import: `node ace list` imports every command file, and must
    // work before .env exists (start/env.ts validates it on import).
    const { default: env } = await import('#start/env')
    const port = env.get('PORT') ?? 3333
    if (await isPortInUse(port)) {
      this.logger.error(
        `port ${port} is in use — is another \`npm run dev\` running? Set PORT and PUBLIC_URL to run a second one, e.g. PORT=${port + 2} PUBLIC_URL=http://localhost:${port + 2} npm run dev`
      )
      this.exitCode = 1
      return this.terminate()
    }
    await this.#migrate()
    if (!(await this.#startDevnet())) {
      this.exitCode = 1
      return this.terminate()
    }
    await this.#startUpstreamSimulator()

    const stop = async () => {
      await this.#devnet?.stop().catch((error: unknown) => {
        this.logger.error(`the devnet could not save its chain: ${error}`)
      })
      await this.#simulator?.close()
      await this.terminate()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)

    await this.kernel.exec('scheduler:run', [])
    await this.kernel.exec('serve', ['--watch', '--no-clear'])
  }

  async #migrate() {
    const db = await this.app.container.make('lucid.db')
    const migrator = new MigrationRunner(db, this.app, { direction: 'up' })
    await migrator.run()
    if (migrator.error) throw migrator.error
    const applied = Object.values(migrator.migratedFiles).filter(
      (file) => file.status === 'completed'
    )
    this.logger.info(
      applied.length ? `applied ${applied.length} migration(s)` : 'database schema is up to date'
    )
  }

  /** False when the devnet's state file cannot be used (said why). */
  async #startDevnet(): Promise<boolean> {
    const chain = await this.app.container.make(ChainConfig)
    if (chain.network.name !== 'devnet') return true

    const target = new URL(chain.apiUrl)
    if (!['127.0.0.1', 'localhost'].includes(target.hostname)) {
      this.logger.info(`STACKS_API_URL points at ${chain.apiUrl}: not starting a local devnet`)
      return true
    }
    if (await this.#answers(`${chain.apiUrl}/v2/info`)) {
      this.logger.info(`a devnet already answers at ${chain.apiUrl}: using it`)
      return true
    }

    const wallet = await this.app.container.make(PlatformWallet)
    // Development tooling: not installed in a production build, where listing the
    // commands imports every command file.
    const { DevnetStateError, startDevnet } = await import('@tollbooth/devnet')
    try {
      this.#devnet = await startDevnet({
        host: target.hostname === 'localhost' ? '127.0.0.1' : target.hostname,
        port: Number(target.port || 3999),
        blockTimeMs: chain.devnet.blockTimeMs,
        statePath: chain.devnet.statePath,
        // Applied at the genesis of a new chain only, never again on a restored one.
        fund: [{ address: wallet.address, amount: PLATFORM_FUNDING }],
      })
    } catch (error) {
      if (!(error instanceof DevnetStateError)) throw error
      this.logger.error(error.message)
      this.logger.info('`node ace dev:reset` deletes the devnet chain and the development database')
      return false
    }

    const devnet = this.#devnet
    const stateFile = displayPath(chain.devnet.statePath)
    this.logger.success(
      `local Stacks devnet at ${devnet.url} (blocks every ${chain.devnet.blockTimeMs} ms)`
    )
    this.logger.info(
      `${devnet.restored ? `chain restored from ${stateFile} at block ${devnet.blockHeight()}` : `new chain, kept in ${stateFile}`} (\`node ace dev:reset\` starts it and the database over)`
    )
    if (devnet.restored && devnet.balanceOf(wallet.address) === 0n) {
      this.logger.warning(
        `the platform wallet ${wallet.address} holds nothing on this chain (PLATFORM_PRIVATE_KEY changed since it began?): \`node ace dev:reset\` starts a new chain that funds it`
      )
    }
    const table = this.ui.table().head(['account', 'address', 'private key (devnet only)'])
    for (const account of devnet.accounts) {
      table.row([account.label, account.address, account.privateKey])
    }
    table.row(['platform', wallet.address, '(PLATFORM_PRIVATE_KEY in .env)'])
    table.render()
    return true
  }

  async #startUpstreamSimulator() {
    const { upstreamSimulatorUrl: configured } = await this.app.container.make(FeedsConfig)
    if (!configured) return
    const target = new URL(configured)
    if (!['127.0.0.1', 'localhost'].includes(target.hostname)) return
    if (await this.#answers(`${configured}/mempool/api/v1/fees/recommended`)) {
      this.logger.info(`an upstream simulator already answers at ${configured}: using it`)
      return
    }
    const { UpstreamSimulator } = await import('@tollbooth/upstream-simulator')
    this.#simulator = await new UpstreamSimulator().listen(Number(target.port || 3998))
    this.logger.success(
      `built-in feeds read the local upstream simulator at ${this.#simulator.url}`
    )
  }

  async #answers(url: string) {
    const clock = await this.app.container.make(Clock)
    const deadline = clock.deadline(500)
    try {
      const response = await fetch(url, { signal: deadline.signal })
      await response.body?.cancel()
      return response.ok
    } catch {
      return false
    } finally {
      deadline.clear()
    }
  }
}
