import app from '@adonisjs/core/services/app'
import type { ApiClient } from '@japa/api-client'
import type { Group } from '@japa/runner/core'
import { PlatformWallet } from '#chain/platform_wallet'
import { FeedCache } from '#feeds/feed_cache'
import { FeedDirectory } from '#feeds/feed_directory'
import { LedgerAudit } from '#ledger/ledger_audit'
import { type Devnet, pointAppAtDevnet } from '#tests/support/chain'
import { SENDER, transfer } from '#tests/support/devnet'
import { sources as driverFactories } from '#feeds/define_config'
import sources from '#feeds/services/main'
import { UPSTREAM_NAMES, type UpstreamName } from '#feeds/builtin/upstreams'
import { UpstreamSimulator } from '@tollbooth/upstream-simulator'
import { encodeHeader } from '#payments/x402_codec'
import type { PaymentRequired } from '#payments/x402'
import { TEST_SETTINGS } from '#tests/support/upstreams'
import { PaymentsConfig } from '#payments/define_config'
import { changeConfig } from '#tests/support/config'
import { inGlobalTransaction } from '#tests/support/database'

const paymentsConfig = await app.container.make(PaymentsConfig)

/**
 * A settlement budget of `settlementBudgetMs` and broadcast retries after
 * 5 ms; returns the function that puts the configuration back.
 */
export function withoutSettlementDelays(settlementBudgetMs: number) {
  const restoreBudget = changeConfig(paymentsConfig, { settlementBudgetMs })
  const restoreBroadcast = changeConfig(paymentsConfig.broadcast, { firstDelayMs: 5 })
  return () => {
    restoreBudget()
    restoreBroadcast()
  }
}

/**
 * Points the app's built-in driver at a fresh upstream simulator until
 * restored; `simulator` options replace its defaults (a hold of 500 ms on a
 * timeout fault, real time).
 */
export async function pointBuiltinFeedsAtSimulator(
  options: {
    timeoutMs?: number
    simulator?: ConstructorParameters<typeof UpstreamSimulator>[0]
  } = {}
) {
  const simulator = await new UpstreamSimulator({ hangMs: 500, ...options.simulator }).listen()
  const baseUrls = Object.fromEntries(
    UPSTREAM_NAMES.map((name) => [name, `${simulator.url}/${name}`])
  )
  sources.fake(
    'builtin',
    driverFactories.builtin({
      baseUrls: baseUrls as Record<UpstreamName, string>,
      simulated: true,
      // Generous: on a loaded machine a slow local answer must not become source_unavailable.
      timeoutMs: options.timeoutMs ?? 5_000,
      maxBytes: 5_000_000,
      settings: TEST_SETTINGS,
    })
  )
  return {
    simulator,
    async restore() {
      await sources.restore('builtin')
      await simulator.close()
    },
  }
}

/** The payment-signature header an x402 v2 client sends for a signed transaction. */
export function paymentHeader(
  required: PaymentRequired,
  transactionHex: string,
  paymentIdentifier?: string
) {
  return encodeHeader({
    x402Version: 2,
    resource: required.resource,
    accepted: required.accepts[0],
    payload: { transaction: transactionHex },
    ...(paymentIdentifier
      ? {
          extensions: {
            'payment-identifier': { info: { required: false, id: paymentIdentifier } },
          },
        }
      : {}),
  })
}

export function decodeHeader<T = Record<string, unknown>>(value: string | undefined): T {
  return JSON.parse(Buffer.from(value ?? '', 'base64').toString('utf8')) as T
}

export interface PaidCallStack {
  devnet: Devnet
  simulator: UpstreamSimulator
  /** The platform wallet: payTo of every payment. */
  payTo: string
}

/**
 * Everything a paid call touches, per test: a global DB transaction, a devnet
 * (instant blocks or manual), the upstream simulator behind the built-in
 * feeds, an empty feed cache and a settlement budget; after each test the
 * ledger must balance.
 */
export function usePaidCallStack(
  group: Group,
  options: { blockTimeMs: number | null; settlementBudgetMs: number }
) {
  const stack = {} as PaidCallStack
  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const chain = await pointAppAtDevnet({ blockTimeMs: options.blockTimeMs })
    const feeds = await pointBuiltinFeedsAtSimulator()
    const wallet = await app.container.make(PlatformWallet)
    const cache = await app.container.make(FeedCache)
    cache.clear()
    const directory = await app.container.make(FeedDirectory)
    directory.forget()
    const restoreConfig = withoutSettlementDelays(options.settlementBudgetMs)
    Object.assign(stack, {
      devnet: chain.devnet,
      simulator: feeds.simulator,
      payTo: wallet.address,
    })
    return async () => {
      restoreConfig()
      await feeds.restore()
      await chain.cleanup()
    }
  })
  group.each.teardown(async () => {
    const audit = await app.container.make(LedgerAudit)
    const report = await audit.run()
    if (report.discrepancies.length > 0) {
      throw new Error(`ledger unbalanced: ${report.discrepancies.join('; ')}`)
    }
  })
  return stack
}

/**
 * The devnet's next nonce of its funded sender (mempool included): how many
 * of the sender's transfers the chain took, mined or waiting.
 */
export async function senderNextNonce(stack: PaidCallStack) {
  const response = await fetch(`${stack.devnet.url}/extended/v1/address/${SENDER.address}/nonces`)
  return ((await response.json()) as { possible_next_nonce: number }).possible_next_nonce
}

/**
 * A buyer paying from the devnet's funded sender: `pay(client, path)` asks
 * for the 402 quote, then sends the call again with a transfer of the quoted
 * amount at the sender's next nonce as the devnet counts it (mempool
 * included), so a payment the service refused without broadcasting does not
 * leave a gap.
 */
export function useBuyer(stack: PaidCallStack) {
  return {
    async pay(client: ApiClient, path: string) {
      const quote = await client.get(path)
      quote.assertStatus(402)
      const required = quote.body() as PaymentRequired
      const amount = BigInt(required.accepts[0].amount)
      const nonce = await senderNextNonce(stack)
      const tx = await transfer({ recipient: stack.payTo, amount, nonce: BigInt(nonce) })
      const response = await client
        .get(path)
        .header('payment-signature', paymentHeader(required, tx.serialize()))
      return { response, tx }
    },
  }
}
