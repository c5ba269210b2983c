import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { makeSTXTokenTransfer } from '@stacks/transactions'
import type { ChainConfig } from '#config/chain'
import { encodeHeader } from '#payments/x402_codec'
import type { PaymentRequired } from '#payments/x402'

/**
 * A buyer in one command: asks a feed for its price, pays it from a devnet
 * account over x402 and prints the data and the explorer link.
 */
export default class AgentBuy extends BaseCommand {
  static commandName = 'agent:buy'
  static description = 'Buy one call of a feed from a devnet account (x402 over HTTP)'
  static options: CommandOptions = { startApp: true }

  @args.string({
    description: 'Feed id, e.g. whale-alerts, or a path such as /feeds/token-intel?address=0x…',
  })
  declare feed: string

  @flags.string({ description: 'Base URL of the service', default: 'http://127.0.0.1:3333' })
  declare url: string

  @flags.string({
    description: 'Devnet account label paying (wallet_1 … wallet_8)',
    default: 'wallet_1',
  })
  declare account: string

  @flags.string({ description: 'Name shown on the leaderboard', default: 'ace-agent' })
  declare agentName: string

  async run() {
    const chain = this.app.config.get<ChainConfig>('chain')
    // Development tooling: not installed in a production build, where listing the
    // commands imports every command file.
    const { DEVNET_ACCOUNTS } = await import('@tollbooth/devnet')
    const buyer = DEVNET_ACCOUNTS.find((account) => account.label === this.account)
    if (chain.network.name !== 'devnet' || !buyer) {
      this.logger.error(
        'agent:buy pays from the devnet accounts: run it with STACKS_NETWORK=devnet and --account wallet_N'
      )
      this.exitCode = 1
      return
    }
    const path = this.feed.startsWith('/') ? this.feed : `/feeds/${this.feed}`
    const target = `${this.url}${path}`

    const quote = await fetch(target)
    if (quote.status !== 402) {
      this.logger.error(`expected 402 from ${target}, got ${quote.status}: ${await quote.text()}`)
      this.exitCode = 1
      return
    }
    const required = (await quote.json()) as PaymentRequired
    const [accept] = required.accepts
    this.logger.info(`${path} costs ${accept.amount} µSTX, paid to ${accept.payTo}`)

    const transaction = await makeSTXTokenTransfer({
      recipient: accept.payTo,
      amount: BigInt(accept.amount),
      senderKey: buyer.privateKey,
      network: { ...chain.network.stacks, client: { baseUrl: chain.apiUrl } },
    })
    const header = encodeHeader({
      x402Version: 2,
      resource: required.resource,
      accepted: accept,
      payload: { transaction: transaction.serialize() },
    })
    const paid = await fetch(target, {
      headers: { 'payment-signature': header, 'x-agent-name': this.agentName },
    })
    const body = await paid.text()
    this.logger.info(`HTTP ${paid.status}`)
    console.log(body)
    this.logger.info(
      `${chain.explorerUrl}/txid/0x${transaction.txid()}?chain=${chain.network.explorerChain}`
    )
    if (paid.status !== 200) this.exitCode = 1
  }
}
