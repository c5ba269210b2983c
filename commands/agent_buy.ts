import { randomUUID } from 'node:crypto'
import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { makeSTXTokenTransfer } from '@stacks/transactions'
import { ChainConfig } from '#chain/define_config'
import { explorerLink } from '#chain/explorer'
import { encodeHeader } from '#payments/x402_codec'
import type { PaymentRequired, SettlementResponse } from '#payments/x402'
import { publicUrl } from '#core/public_url'

/** Why the purchase stopped: a short message for the terminal, exit code 1. */
class PurchaseStopped extends Error {}

/**
 * A buyer in one command: asks a feed for its price, pays it from a devnet
 * account over x402 and prints the data and the explorer link. Exits 0 only
 * with the data; any other outcome is a short message and exit code 1. Only
 * the data goes to stdout (`… | jq`): progress, the explorer link and errors
 * go to stderr, as the app's own log lines do under ace (config/logger.ts).
 */
export default class AgentBuy extends BaseCommand {
  static commandName = 'agent:buy'
  static description = 'Buy one call of a feed from a devnet account (x402 over HTTP)'
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

  @flags.boolean({
    description: 'Print the paid response body exactly as received (default: indented)',
  })
  declare json?: boolean

  @flags.string({ description: 'Name shown on the leaderboard', default: 'ace-agent' })
  declare agentName: string

  async run() {
    try {
      await this.#buy()
    } catch (error) {
      if (!(error instanceof PurchaseStopped)) throw error
      this.logger.error(error.message)
      this.exitCode = 1
    }
  }

  async #buy() {
    const chain = await this.app.container.make(ChainConfig)
    const devnetOnly =
      'agent:buy pays from the devnet accounts: run it from a checkout with STACKS_NETWORK=devnet and --account wallet_N'
    if (chain.network.name !== 'devnet') throw new PurchaseStopped(devnetOnly)
    // Development tooling: not installed in a production build, where listing the
    // commands imports every command file.
    const devnet = await import('@tollbooth/devnet').catch(() => {
      throw new PurchaseStopped(devnetOnly)
    })
    const buyer = devnet.DEVNET_ACCOUNTS.find((account) => account.label === this.account)
    if (!buyer) {
      const labels = devnet.DEVNET_ACCOUNTS.map((account) => account.label).join(', ')
      throw new PurchaseStopped(
        `there is no devnet account "${this.account}": --account takes one of ${labels}`
      )
    }
    const base = this.url ?? publicUrl()
    if (!URL.canParse(base)) {
      throw new PurchaseStopped(`--url must be the service's base URL, e.g. http://127.0.0.1:3333`)
    }
    const path = this.feed.startsWith('/') ? this.feed : `/feeds/${this.feed}`
    const target = `${base}${path}`
    const unreachable = {
      what: `could not reach Tollbooth at ${base}`,
      hint: 'is `npm run dev` running? --url gives another address',
    }

    const quote = await reach(unreachable, () => fetch(target))
    const quoteText = await quote.text()
    const required = parseJson(quoteText) as PaymentRequired | null
    const accept = quote.status === 402 ? required?.accepts?.[0] : undefined
    if (!required || !accept) throw new PurchaseStopped(describe(target, quote, quoteText))
    this.#progress(`${path} costs ${accept.amount} µSTX, paid to ${accept.payTo}`)

    const node = {
      what: `could not reach the Stacks node at ${chain.apiUrl}`,
      hint: 'is `npm run dev` (or `node ace devnet`) running? STACKS_API_URL names the node',
    }
    const transaction = await reach(node, () =>
      makeSTXTokenTransfer({
        recipient: accept.payTo,
        amount: BigInt(accept.amount),
        senderKey: buyer.privateKey,
        network: { ...chain.network.stacks, client: { baseUrl: chain.apiUrl } },
      })
    )
    // As a careful x402 client: a retry of this payment with the same id gets the stored answer.
    const identifier = required.extensions?.['payment-identifier']
      ? {
          'payment-identifier': {
            info: { required: false, id: `pay_${randomUUID().replaceAll('-', '')}` },
          },
        }
      : undefined
    const header = encodeHeader({
      x402Version: 2,
      resource: required.resource,
      accepted: accept,
      payload: { transaction: transaction.serialize() },
      ...(identifier ? { extensions: identifier } : {}),
    })
    const paid = await reach(unreachable, () =>
      fetch(target, { headers: { 'payment-signature': header, 'x-agent-name': this.agentName } })
    )
    const body = await paid.text()
    const txid = broadcastTxid(paid, body)
    if (txid) {
      this.#progress(`transfer broadcast: ${explorerLink(chain, txid)}`)
    }
    if (paid.status !== 200) throw new PurchaseStopped(describe(target, paid, body))
    const data = parseJson(body)
    console.log(this.json || data === null ? body : JSON.stringify(data, null, 2))
  }

  /** An info line on stderr: stdout carries the data only. */
  #progress(message: string) {
    this.logger.logError(this.logger.prepareInfo(message))
  }
}

/** Runs a request, turning a refused or failed connection into one line instead of a stack. */
async function reach<T>(
  { what, hint }: { what: string; hint: string },
  request: () => Promise<T>
): Promise<T> {
  try {
    return await request()
  } catch (error) {
    if (!(error instanceof TypeError && error.message === 'fetch failed')) throw error
    const cause = error.cause as { code?: string; message?: string } | undefined
    throw new PurchaseStopped(
      `${what} (${cause?.code ?? cause?.message ?? 'connection failed'}) — ${hint}`
    )
  }
}

/**
 * "GET <url> → HTTP 404 feed_not_found: No feed …", from our error shape or
 * x402's; a 422 goes on with each field that failed and why.
 */
function describe(target: string, response: Response, text: string) {
  const body = parseJson(text) as {
    error?:
      string | { code?: string; message?: string; fields?: { field?: string; message?: string }[] }
    receipt?: { token?: string; status_url?: string }
  } | null
  const prefix = `GET ${target} → HTTP ${response.status}`
  const error = body?.error
  if (typeof error === 'object' && error !== null) {
    const fields = (Array.isArray(error.fields) ? error.fields : [])
      .filter(({ message }) => message !== error.message)
      .map(({ field, message }) => `\n  ${field || '(request)'}: ${message}`)
    return `${prefix} ${error.code}: ${error.message}${fields.join('')}`
  }
  if (error === 'settlement_pending' && body?.receipt) {
    const statusUrl = new URL(body.receipt.status_url ?? '', target)
    return `${prefix} settlement_pending: broadcast, not confirmed yet; collect the data with GET ${statusUrl} and x-payment-receipt: ${body.receipt.token}`
  }
  if (typeof error === 'string') return `${prefix} ${error}`
  if (response.status === 402) return `${prefix}: not an x402 payment request`
  return `${prefix}: ${text.slice(0, 200)}`
}

/**
 * The 0x txid of a transfer the service did broadcast: a settled payment's
 * `payment-response`, or a pending 202's receipt. A refused or uncharged
 * call (its payment-response has success: false) broadcast nothing.
 */
function broadcastTxid(response: Response, body: string): string | undefined {
  const header = response.headers.get('payment-response')
  const settlement = header
    ? (parseJson(Buffer.from(header, 'base64').toString('utf8')) as SettlementResponse | null)
    : null
  if (settlement?.success && settlement.transaction) return settlement.transaction
  if (response.status === 202) {
    return (parseJson(body) as { receipt?: { txid?: string } } | null)?.receipt?.txid
  }
  return undefined
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
