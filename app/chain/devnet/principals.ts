import { AddressVersion, createAddress } from '@stacks/transactions'

const TESTNET_VERSIONS: readonly number[] = [
  AddressVersion.TestnetSingleSig,
  AddressVersion.TestnetMultiSig,
]
const CONTRACT_NAME = /^[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39}$/

/** The address version byte of a c32check address, or null when it is malformed. */
export function addressVersionOf(address: string): number | null {
  if (address.length < 28 || address.length > 41) return null
  try {
    return createAddress(address).version
  } catch {
    return null
  }
}

/**
 * True for a well-formed principal of this (testnet-versioned) chain: an
 * ST…/SN… address, optionally followed by `.contract-name`.
 */
export function isTestnetPrincipal(value: string): boolean {
  const parts = value.split('.')
  if (parts.length > 2) return false
  if (parts.length === 2 && !CONTRACT_NAME.test(parts[1])) return false
  const version = addressVersionOf(parts[0])
  return version !== null && TESTNET_VERSIONS.includes(version)
}
