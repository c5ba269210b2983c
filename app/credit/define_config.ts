import { injectableConfig } from '#core/injectable_config'
import type { Microstx } from '#ledger/money'

export interface CreditConfigValues {
  /** What one top-up may be (docs/credit.md#top-ups). */
  topUp: { minimumMicrostx: Microstx; maximumMicrostx: Microstx }
  /** Credit tokens: how long one lives at most (≤ 1 h, docs/credit.md#credit-tokens). */
  token: { maxLifetimeSeconds: number }
  /**
   * The smallest refund but one of the whole credit: the platform pays each
   * refund's network fee (docs/credit.md#refunds).
   */
  refund: { minimumMicrostx: Microstx }
}

/** config/credit.ts, bound by CreditProvider: `@inject()` classes take it as an argument. */
export class CreditConfig extends injectableConfig<CreditConfigValues>() {}

export function defineConfig(values: CreditConfigValues) {
  return new CreditConfig(values)
}
