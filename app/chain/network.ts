import { STACKS_DEVNET, STACKS_MAINNET, STACKS_TESTNET, type StacksNetwork } from '@stacks/network'

/** stacks-core's MINIMUM_TX_FEE_RATE_PER_BYTE: a node refuses a lower fee (FeeTooLow). */
export const MINIMUM_FEE_RATE_PER_BYTE = 1n

export type StacksNetworkName = 'mainnet' | 'testnet' | 'devnet'
export type Caip2NetworkId = 'stacks:1' | 'stacks:2147483648'

/**
 * What the service needs to know about a Stacks network. The devnet is a
 * testnet-versioned chain (same chain id, transaction and address versions),
 * so a devnet payment is a testnet payment to every client; only the public
 * explorers do not know it (its links go to the devnet's own pages, which ignore `?chain=`).
 */
export interface NetworkPreset {
  name: StacksNetworkName
  caip2: Caip2NetworkId
  chainId: number
  transactionVersion: number
  addressVersion: { singleSig: number; multiSig: number }
  defaultApiUrl: string
  /** `?chain=` of the explorer links (testnet on the devnet: its own pages ignore it). */
  explorerChain: 'mainnet' | 'testnet'
  /** The @stacks/network object, for building and signing transactions. */
  stacks: StacksNetwork
}

function preset(
  name: StacksNetworkName,
  caip2: Caip2NetworkId,
  stacks: StacksNetwork,
  explorerChain: 'mainnet' | 'testnet'
): NetworkPreset {
  return {
    name,
    caip2,
    chainId: stacks.chainId,
    transactionVersion: stacks.transactionVersion,
    addressVersion: stacks.addressVersion,
    defaultApiUrl: name === 'devnet' ? 'http://127.0.0.1:3999' : stacks.client.baseUrl,
    explorerChain,
    stacks,
  }
}

export const NETWORKS: Record<StacksNetworkName, NetworkPreset> = {
  mainnet: preset('mainnet', 'stacks:1', STACKS_MAINNET, 'mainnet'),
  testnet: preset('testnet', 'stacks:2147483648', STACKS_TESTNET, 'testnet'),
  devnet: preset('devnet', 'stacks:2147483648', STACKS_DEVNET, 'testnet'),
}

/** A preset whose @stacks/network client talks to the given API base URL. */
export function networkFor(name: StacksNetworkName, apiUrl?: string): NetworkPreset {
  const base = NETWORKS[name]
  if (!apiUrl) return base
  return { ...base, stacks: { ...base.stacks, client: { ...base.stacks.client, baseUrl: apiUrl } } }
}
