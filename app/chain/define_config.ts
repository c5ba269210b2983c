import type { NetworkPreset } from '#chain/network'

export interface ChainConfigValues {
  network: NetworkPreset
  apiUrl: string
  apiKey?: string
  /** Time-out of one call to the Stacks API. */
  requestTimeoutMs: number
  /** Time-out of the node probe in GET /health. */
  healthTimeoutMs: number
  platformPrivateKey: string
  explorerUrl: string
  withdrawalMemoPrefix: string
  devnet: {
    /** Block time of the devnet `npm run dev` starts; 0 mines right after each transaction. */
    blockTimeMs: number
  }
}

/**
 * config/chain.ts, injectable: ChainProvider binds the instance the config
 * file defines, so `@inject()` classes take it as a constructor argument.
 */
export interface ChainConfig extends ChainConfigValues {}
export class ChainConfig {
  constructor(values: ChainConfigValues) {
    Object.assign(this, values)
  }
}

export function defineConfig(values: ChainConfigValues) {
  return new ChainConfig(values)
}
