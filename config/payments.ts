import env from '#start/env'
import { DEFAULT_MAX_FEE } from '#payments/verify_payment'
import { defineConfig } from '#payments/define_config'

/**
 * Time budgets and limits of the paid call and the facilitator. Every one is
 * configurable so tests never wait on real time
 * (docs/architecture.md#caches-and-time).
 */
const paymentsConfig = defineConfig({
  /**
   * FACILITATOR_URL: settle through a remote x402 facilitator (its full
   * prefix); unset → in-process, the code behind this service's /facilitator.
   */
  facilitatorUrl: env.get('FACILITATOR_URL'),
  /** Signs the paywall's settle requests to another instance of this service (paywall_proof.ts). */
  paywallProofKey: env.get('APP_KEY') ?? '',
  /** Time-out of a remote facilitator's /verify. */
  facilitatorTimeoutMs: 5_000,
  /** The largest /verify or /settle answer read from it, in bytes (they are a few hundred). */
  facilitatorMaxBytes: 65_536,
  /** A paid request answers within this budget: fetch, broadcast and confirmation wait share it. */
  settlementBudgetMs: 25_000,
  /**
   * Broadcast tries on 429: the node's Retry-After is honoured up to
   * maxRetryAfterMs (two waits at most take 4 s of the budget), else 500 ms, 1 s.
   */
  broadcast: { attempts: 3, firstDelayMs: 500, maxRetryAfterMs: 2_000 },
  confirmation: { firstPollMs: 500, pollIntervalMs: 2_000, lookupBatchMs: 10 },
  /**
   * payments:reconcile: rows idle graceSeconds are finished; unknown to the chain releaseAfterSeconds
   * after the claim → a claim never handed over is released, a broadcast one is marked dropped and
   * waits on its payer's nonce, looked at again every droppedRecheckSeconds. A run holds the rows it
   * took for leaseMs at most: minutes, far beyond the seconds instances' clocks may differ by.
   */
  reconcile: {
    graceSeconds: 30,
    releaseAfterSeconds: 600,
    droppedRecheckSeconds: 300,
    batchSize: 500,
    leaseMs: 5 * 60_000,
  },
  /** How long a payer's balance and nonce are reused between payments, for how many payers. */
  payerAccounts: { ttlMs: 3_000, maxEntries: 10_000 },
  /** Highest network fee a payment may carry, in µSTX. */
  maxFeeMicrostx: DEFAULT_MAX_FEE,
})

export default paymentsConfig
export type { PaymentsConfig } from '#payments/define_config'
