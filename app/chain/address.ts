import { createAddress, privateKeyToAddress } from '@stacks/transactions'
import type { NetworkPreset } from '#chain/network'

export type StacksAddressKind = 'single_sig' | 'multi_sig'

export type AddressCheck =
  | { valid: true; address: string; kind: StacksAddressKind }
  | { valid: false; reason: 'malformed' | 'wrong_network' | 'contract_principal' }

/**
 * Checks a standard principal (c32check, version byte) and that it belongs to
 * the given network: an SP… mainnet address is refused on testnet and devnet.
 */
export function checkAddress(value: unknown, network: NetworkPreset): AddressCheck {
  if (typeof value !== 'string') return { valid: false, reason: 'malformed' }
  if (value.includes('.')) return { valid: false, reason: 'contract_principal' }
  if (value.length < 28 || value.length > 41) return { valid: false, reason: 'malformed' }
  let version: number
  try {
    version = createAddress(value).version
  } catch {
    return { valid: false, reason: 'malformed' }
  }
  if (version === network.addressVersion.singleSig)
    return { valid: true, address: value, kind: 'single_sig' }
  if (version === network.addressVersion.multiSig)
    return { valid: true, address: value, kind: 'multi_sig' }
  return { valid: false, reason: 'wrong_network' }
}

export function addressOfPrivateKey(privateKey: string, network: NetworkPreset): string {
  return privateKeyToAddress(privateKey, network.stacks)
}
