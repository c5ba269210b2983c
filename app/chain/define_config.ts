import { injectableConfig } from '#core/injectable_config'
import type { NetworkPreset } from '#chain/network'

export interface ChainConfigValues {
  network: NetworkPreset
  apiUrl: string
  apiKey?: string
  /** Time-out of one call to the Stacks API. */
  requestTimeoutMs: number
  /** The largest answer read from the Stacks API, in bytes. */
  maxAnswerBytes: number
  /** Time-out of the node probe in GET /health. */
  healthTimeoutMs: number
  platformPrivateKey: string
  explorerUrl: string
  withdrawalMemoPrefix: string
  devnet: {
    /** Block time of the devnet `npm run dev` starts; 0 mines right after each transaction. */
    blockTimeMs: number
    /** The file that devnet keeps its chain in (`node ace dev:reset` deletes it). */
    statePath: string
  }
}

/** config/chain.ts, bound by ChainProvider: `@inject()` classes take it as an argument. */
export class ChainConfig extends injectableConfig<ChainConfigValues>() {}

export function defineConfig(values: ChainConfigValues) {
  return new ChainConfig(values)
}
