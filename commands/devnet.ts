import { resolve } from 'node:path'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import type { Devnet } from '@tollbooth/devnet'

/**
 * `node ace devnet`: only the local Stacks devnet, for people and for other
 * processes (the app, wallets, scripts) pointed at it. It needs no app config
 * and no database.
 */
export default class DevnetCommand extends BaseCommand {
  static commandName = 'devnet'
  static description =
    'Run the local Stacks devnet (stacks-node RPC and Hiro API subset) with pre-funded accounts'

  static options: CommandOptions = { startApp: false, staysAlive: true }

  @flags.number({ description: 'Port to listen on (default 3999)' })
  declare port?: number

  @flags.string({ description: 'Interface to listen on (default 127.0.0.1)' })
  declare host?: string

  @flags.number({
    description:
      'Milliseconds between blocks (default 2000); 0 mines each transaction as soon as it is accepted',
  })
  declare blockTime?: number

  @flags.array({
    description:
      'Also fund this address with 100,000,000 STX (repeatable); a new chain only, not a restored one',
  })
  declare fund?: string[]

  @flags.string({
    description:
      'Keep the chain in this file across restarts (default: in memory); npm run dev keeps its own in tmp/devnet-development.json',
  })
  declare state?: string

  #devnet?: Devnet

  async run() {
    // Development tooling: not installed in a production build, where listing the
    // commands imports every command file. The defaults are the package's.
    const { DEFAULT_ACCOUNT_BALANCE, DEFAULT_BLOCK_TIME_MS, DEFAULT_DEVNET_PORT, startDevnet } =
      await import('@tollbooth/devnet')
    const port = this.port ?? DEFAULT_DEVNET_PORT
    const blockTime = this.blockTime ?? DEFAULT_BLOCK_TIME_MS
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      return this.#fail(`--port must be an integer between 0 and 65535, got ${port}`)
    }
    if (!Number.isFinite(blockTime) || blockTime < 0) {
      return this.#fail(
        `--block-time must be 0 or a positive number of milliseconds, got ${blockTime}`
      )
    }

    const funded = this.fund ?? []
    try {
      this.#devnet = await startDevnet({
        port,
        host: this.host,
        blockTimeMs: blockTime,
        fund: funded.map((address) => ({ address, amount: DEFAULT_ACCOUNT_BALANCE })),
        statePath: this.state === undefined ? undefined : resolve(this.state),
      })
    } catch (error) {
      return this.#fail(
        `could not start the devnet: ${error instanceof Error ? error.message : error}`
      )
    }

    const devnet = this.#devnet
    const blocks =
      blockTime === 0 ? 'a block per accepted transaction' : `a block every ${blockTime} ms`
    this.logger.success(`Stacks devnet listening on ${devnet.url} (${blocks})`)
    if (devnet.restored) {
      this.logger.info(
        `chain restored from ${this.state} at block ${devnet.blockHeight()}; the keys below are public, devnet only`
      )
      if (funded.length > 0) this.logger.warning('--fund only applies to a new chain: ignored')
    } else {
      if (devnet.statePath) this.logger.info(`new chain, kept in ${this.state}`)
      this.logger.info('each account below holds 100,000,000 STX; the keys are public, devnet only')
    }

    const table = this.ui.table().head(['account', 'address', 'private key'])
    for (const account of devnet.accounts) {
      table.row([account.label, account.address, account.privateKey])
    }
    if (!devnet.restored) for (const address of funded) table.row(['--fund', address, '-'])
    table.render()
    this.logger.info(`mine now: curl -X POST ${devnet.url}/devnet/mine`)

    this.app.terminating(() => devnet.stop())
    const stop = async (signal: NodeJS.Signals) => {
      this.logger.info(`${signal}: stopping the devnet`)
      await devnet.stop().catch((error: unknown) => {
        this.logger.error(`the devnet could not save its chain: ${error}`)
      })
      await this.terminate()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  }

  async #fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
    await this.terminate()
  }
}
