import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { ChainConfig } from '#chain/define_config'
import { explorerUrlFor } from '#chain/explorer'
import { StacksClient, type StacksClientOptions } from '#chain/stacks_client'
import { Clock } from '#core/clock'
import { ConfirmationWatcher } from '#payments/confirmation_watcher'
import { CachedPayerAccounts } from '#payments/payer_accounts'
import { PaymentRecords } from '#payments/payment_records'
import { PreBroadcastChecks } from '#payments/pre_broadcast_checks'
import { LocalSettlement } from '#payments/settlement/local_settlement'
import { PaymentSettlement } from '#payments/settlement/payment_settlement'
import { type Devnet, startDevnet } from '@tollbooth/devnet'
import { changeConfig } from '#tests/support/config'

const chainConfig = await app.container.make(ChainConfig)

export interface AppChainOptions {
  /** Build the app's Stacks client (e.g. one that counts its calls). */
  client?: (baseUrl: string) => StacksClient
  /** Reuse payer look-ups this long, as in production; unset, they are not cached (always fresh). */
  payerAccountTtlMs?: number
  /** Poll cadence of the confirmation watcher. */
  confirmationPolls?: { firstPollMs: number; pollIntervalMs: number }
}

/**
 * A devnet on a random port (manual block production unless told otherwise),
 * with the app's StacksClient, confirmation watcher and payer look-ups
 * pointed at it.
 */
export async function pointAppAtDevnet(
  options: Parameters<typeof startDevnet>[0] = {},
  appOptions: AppChainOptions = {}
) {
  const devnet = await startDevnet({ port: 0, blockTimeMs: null, hangMs: 500, ...options })
  const chain = await pointAppAtChain(devnet.url, appOptions)
  return {
    devnet,
    client: chain.client,
    async cleanup() {
      chain.restore()
      await devnet.stop()
    },
  }
}

/**
 * A StacksClient's options for the node at `baseUrl`: a 1 s time-out by the
 * real clock unless `overrides` say otherwise, config/chain.ts's size cap.
 */
export function stacksClientOptions(
  baseUrl: string,
  overrides: Partial<StacksClientOptions> = {}
): StacksClientOptions {
  const { maxAnswerBytes } = chainConfig
  return { baseUrl, timeoutMs: 1_000, maxBytes: maxAnswerBytes, clock: new Clock(), ...overrides }
}

/**
 * The app's StacksClient, confirmation watcher and payer look-ups pointed at
 * the node at `url`, and its explorer links where config/chain.ts sends them
 * with STACKS_API_URL=`url` (on the devnet: that node's transaction pages).
 */
export async function pointAppAtChain(url: string, appOptions: AppChainOptions = {}) {
  const clock = await app.container.make(Clock)
  const client = appOptions.client?.(url) ?? new StacksClient(stacksClientOptions(url, { clock }))
  const watcher = new ConfirmationWatcher(
    client,
    clock,
    appOptions.confirmationPolls ?? { firstPollMs: 5, pollIntervalMs: 20 }
  )
  const payerAccounts =
    appOptions.payerAccountTtlMs === undefined
      ? client
      : new CachedPayerAccounts(client, clock, {
          ttlMs: appOptions.payerAccountTtlMs,
          maxEntries: 1_000,
        })
  app.container.swap(StacksClient, () => client)
  app.container.swap(ConfirmationWatcher, () => watcher)
  const settlement = new LocalSettlement(
    client,
    watcher,
    { attempts: 3, firstDelayMs: 5, maxRetryAfterMs: 5 },
    clock
  )
  const checks = new PreBroadcastChecks(
    watcher,
    payerAccounts,
    await app.container.make(PaymentRecords),
    () => clock.now()
  )
  app.container.swap(LocalSettlement, () => settlement)
  app.container.swap(PreBroadcastChecks, () => checks)
  app.container.swap(PaymentSettlement, () => settlement)
  const restoreExplorerUrl = changeConfig(chainConfig, {
    explorerUrl: explorerUrlFor(chainConfig.network.name, url, env.get('EXPLORER_URL')),
  })
  return {
    client,
    restore() {
      restoreExplorerUrl()
      watcher.stop()
      app.container.restore(StacksClient)
      app.container.restore(ConfirmationWatcher)
      app.container.restore(LocalSettlement)
      app.container.restore(PreBroadcastChecks)
      app.container.restore(PaymentSettlement)
    },
  }
}

export type { Devnet }
