import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { ChainConfig } from '#chain/define_config'
import { explorerLink } from '#chain/explorer'
import { publicUrl } from '#core/public_url'

/** The CLI's exit code for a command it cannot run as given (packages/agent/README.md). */
const USAGE_EXIT_CODE = 2

/**
 * `tollbooth get` (packages/agent's CLI) paying from a devnet account: the
 * service's PUBLIC_URL, the app's Stacks node and the account's key instead of
 * the TOLLBOOTH_* variables, and explorer links to the devnet's pages. Exit
 * codes are the CLI's (packages/agent/README.md). Only the data goes to stdout
 * (`… | jq`); progress, the links and errors go to stderr, as the app's own
 * log lines do under ace (config/logger.ts).
 */
export default class AgentBuy extends BaseCommand {
  static commandName = 'agent:buy'
  static description =
    'Buy one call of a feed from a devnet account (tollbooth get, x402 over HTTP)'
  static options: CommandOptions = { startApp: true }

  @args.string({
    description: 'Feed id, e.g. whale-alerts, or a path such as /feeds/token-intel?address=0x…',
  })
  declare feed: string

  @flags.string({ description: 'Base URL of the service (default: PUBLIC_URL)' })
  declare url?: string

  @flags.string({
    description:
      'Devnet account paying: deployer, wallet_1 … wallet_8 or faucet (docs/devnet.md#accounts)',
    default: 'wallet_1',
  })
  declare account: string

  @flags.boolean({ description: 'Print the paid response body as received (default: the data)' })
  declare json?: boolean

  @flags.string({ description: 'Name shown on the leaderboard', default: 'ace-agent' })
  declare agentName: string

  @flags.string({ description: 'Per-call cap in STX (default 0.01)' })
  declare max?: string

  @flags.string({ description: 'Seconds to collect a payment still settling', default: '0' })
  declare wait: string

  async run() {
    const chain = await this.app.container.make(ChainConfig)
    const devnetOnly =
      'agent:buy pays from the devnet accounts: run it from a checkout with STACKS_NETWORK=devnet and --account wallet_N'
    // Development tooling, imported here: a production build has neither (the buyer's
    // CLI is packages/agent's, not compiled into it), and listing the commands imports
    // every command file.
    const devnet =
      chain.network.name === 'devnet' ? await import('@tollbooth/devnet').catch(() => null) : null
    const cli = devnet ? await import('#agent/cli').catch(notInstalled) : null
    if (!devnet || !cli) return this.#stop(devnetOnly)
    const buyer = devnet.DEVNET_ACCOUNTS.find((account) => account.label === this.account)
    if (!buyer) {
      const labels = devnet.DEVNET_ACCOUNTS.map((account) => account.label).join(', ')
      return this.#stop(
        `there is no devnet account "${this.account}": --account takes one of ${labels}`
      )
    }
    const base = this.url ?? publicUrl()
    const feed = this.feed.startsWith('/') ? `${base.replace(/\/+$/, '')}${this.feed}` : this.feed
    const argv = ['get', feed, '--agent-name', this.agentName, '--wait', this.wait]
    if (this.max !== undefined) argv.push('--max', this.max)
    if (this.json) argv.push('--json')
    this.exitCode = await cli.runCli(argv, {
      env: {
        TOLLBOOTH_URL: base,
        TOLLBOOTH_NETWORK: 'devnet',
        TOLLBOOTH_STACKS_API: chain.apiUrl,
        TOLLBOOTH_PRIVATE_KEY: buyer.privateKey,
        TOLLBOOTH_STATE: process.env.TOLLBOOTH_STATE,
        XDG_STATE_HOME: process.env.XDG_STATE_HOME,
      },
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => this.logger.logError(text.replace(/\n$/, '')),
      explorerLink: (txid) => explorerLink(chain, txid),
      stacksApiVariable: 'STACKS_API_URL',
    })
  }

  #stop(message: string) {
    this.logger.error(message)
    this.exitCode = USAGE_EXIT_CODE
  }
}

/** null when a module is not installed (a production build); any other failure to load it throws. */
function notInstalled(error: { code?: string }) {
  if (error.code === 'ERR_MODULE_NOT_FOUND') return null
  throw error
}
