import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import {
  DEFAULT_ACCOUNT_BALANCE,
  DEFAULT_BLOCK_TIME_MS,
  DEFAULT_DEVNET_HOST,
  DEFAULT_DEVNET_PORT,
  type Devnet,
  startDevnet,
} from '#chain/devnet/main'

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

  @flags.number({ description: 'Port to listen on', default: DEFAULT_DEVNET_PORT })
  declare port: number

  @flags.string({ description: 'Interface to listen on', default: DEFAULT_DEVNET_HOST })
  declare host: string

  @flags.number({
    description: 'Milliseconds between blocks; 0 mines each transaction as soon as it is accepted',
    default: DEFAULT_BLOCK_TIME_MS,
  })
  declare blockTime: number

  @flags.array({ description: 'Also fund this address with 100,000,000 STX (repeatable)' })
  declare fund?: string[]

  #devnet?: Devnet

  async run() {
    if (!Number.isInteger(this.port) || this.port < 0 || this.port > 65535) {
      return this.#fail(`--port must be an integer between 0 and 65535, got ${this.port}`)
    }
    if (!Number.isFinite(this.blockTime) || this.blockTime < 0) {
      return this.#fail(
        `--block-time must be 0 or a positive number of milliseconds, got ${this.blockTime}`
      )
    }

    const funded = this.fund ?? []
    try {
      this.#devnet = await startDevnet({
        port: this.port,
        host: this.host,
        blockTimeMs: this.blockTime,
        fund: funded.map((address) => ({ address, amount: DEFAULT_ACCOUNT_BALANCE })),
      })
    } catch (error) {
      return this.#fail(
        `could not start the devnet: ${error instanceof Error ? error.message : error}`
      )
    }

    const devnet = this.#devnet
    const blocks =
      this.blockTime === 0
        ? 'a block per accepted transaction'
        : `a block every ${this.blockTime} ms`
    this.logger.success(`Stacks devnet listening on ${devnet.url} (${blocks})`)
    this.logger.info('each account below holds 100,000,000 STX; the keys are public, devnet only')

    const table = this.ui.table().head(['account', 'address', 'private key'])
    for (const account of devnet.accounts) {
      table.row([account.label, account.address, account.privateKey])
    }
    for (const address of funded) table.row(['--fund', address, '-'])
    table.render()
    this.logger.info(`mine now: curl -X POST ${devnet.url}/devnet/mine`)

    this.app.terminating(() => devnet.stop())
    const stop = async (signal: NodeJS.Signals) => {
      this.logger.info(`${signal}: stopping the devnet`)
      await devnet.stop()
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
