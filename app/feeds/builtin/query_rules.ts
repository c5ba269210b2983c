import vine from '@vinejs/vine'
import type { QueryParameter } from '#feeds/feed_declaration'

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** An EVM address query parameter: 0x and 40 hex digits, trimmed and lower-cased. */
export const evmAddress = () => vine.string().trim().regex(EVM_ADDRESS).toLowerCase()

/** The `address` parameter as a feed declares it (evmAddress), with the address its example answer is for. */
export function evmAddressParameter(description: string, example: string): QueryParameter {
  return {
    name: 'address',
    in: 'query',
    required: true,
    description,
    schema: { type: 'string', pattern: EVM_ADDRESS.source, examples: [example] },
  }
}

/** The optional `chain` parameter as a feed declares it: one of `chains`, the first by default. */
export function chainParameter(chains: readonly string[]): QueryParameter {
  return {
    name: 'chain',
    in: 'query',
    required: false,
    description: `Chain of the address; ${chains[0]} when absent`,
    schema: { type: 'string', enum: [...chains], default: chains[0] },
  }
}

/** DEX Screener chain ids of the EVM chains token-intel accepts. */
export const TOKEN_INTEL_CHAINS = [
  'ethereum',
  'bsc',
  'base',
  'arbitrum',
  'polygon',
  'optimism',
  'avalanche',
] as const
