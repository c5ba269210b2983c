import { injectableConfig } from '#core/injectable_config'
import type { BroadcastRetryOptions } from '#chain/broadcast_transaction'
import type { ConfirmationWatcherOptions } from '#payments/confirmation_watcher'
import type { ReconcileOptions } from '#payments/reconcile_payments'

export interface PaymentsConfigValues {
  /**
   * FACILITATOR_URL: settle through a remote x402 facilitator (its full
   * prefix); unset → in-process, the code behind this service's /facilitator.
   */
  facilitatorUrl?: string
  /** Signs the paywall's settle requests to another instance of this service (paywall_proof.ts). */
  paywallProofKey: string
  /** Time-out of a remote facilitator's /verify. */
  facilitatorTimeoutMs: number
  /** The largest /verify or /settle answer read from it, in bytes. */
  facilitatorMaxBytes: number
  /** A paid request answers within this budget: fetch, broadcast and confirmation wait share it. */
  settlementBudgetMs: number
  broadcast: BroadcastRetryOptions
  confirmation: ConfirmationWatcherOptions
  /**
   * payments:reconcile: see ReconcileOptions; leaseMs: how long a run holds the
   * rows it took, minutes beyond any clock skew between instances
   * (docs/architecture.md#leases).
   */
  reconcile: ReconcileOptions & { leaseMs: number }
  /** How long a payer's balance and nonce are reused between payments, for how many payers. */
  payerAccounts: { ttlMs: number; maxEntries: number }
  /** Highest network fee a payment may carry, in µSTX. */
  maxFeeMicrostx: bigint
}

/** config/payments.ts, bound by PaymentsProvider: `@inject()` classes take it as an argument. */
export class PaymentsConfig extends injectableConfig<PaymentsConfigValues>() {}

export function defineConfig(values: PaymentsConfigValues) {
  return new PaymentsConfig(values)
}
