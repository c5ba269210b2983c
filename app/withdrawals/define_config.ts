import type { BroadcastRetryOptions } from '#chain/broadcast_transaction'
import { injectableConfig } from '#core/injectable_config'
import type { Microstx } from '#ledger/money'

export interface WithdrawalsConfigValues {
  /** The spec's limits per request: 1 STX to 1000 STX. */
  minimumMicrostx: Microstx
  maximumMicrostx: Microstx
  /** Stacks refuses more than 25 chained pending transactions per sender (TooMuchChaining). */
  maxChained: number
  /** fee = the node's µSTX/byte estimate × estimatedBytes, at most capMicrostx; the platform pays it. */
  fee: { estimatedBytes: number; capMicrostx: Microstx }
  broadcast: BroadcastRetryOptions
  /** withdrawals:confirm */
  confirm: {
    /** Rows untouched for this long are this run's (a request may still be broadcasting them). */
    graceSeconds: number
    /** A dropped transaction is looked at again for this long before it is re-broadcast or failed. */
    droppedGraceMs: number
    batchSize: number
    /** A withdrawal still unsettled after this many sends is logged as a warning each run. */
    warnAfterAttempts: number
    /**
     * How long a run holds the rows it took: minutes, far beyond any clock
     * skew between instances (docs/architecture.md#leases).
     */
    leaseMs: number
  }
  /**
   * How long a sender's claim on sending a withdrawal's bytes lasts (covers the
   * 429 retries); a lease too, minutes beyond any clock skew.
   */
  sendLeaseMs: number
  /** GET …/withdrawals: default and largest `limit` (1000 is the spec's full export). */
  list: { defaultLimit: number; maxLimit: number }
}

/** config/withdrawals.ts, bound by WithdrawalsProvider: `@inject()` classes take it as an argument. */
export class WithdrawalsConfig extends injectableConfig<WithdrawalsConfigValues>() {}

export function defineConfig(values: WithdrawalsConfigValues) {
  return new WithdrawalsConfig(values)
}
