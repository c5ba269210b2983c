import { STACKS_DEVNET } from '@stacks/network'
import { type AddressWire, createAddress } from '@stacks/transactions'

const CONTRACT_NAME = /^[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39}$/
/** A standard principal is a version byte and a 20-byte hash160 (40 hex digits). */
const HASH160_HEX_LENGTH = 40

/**
 * True for a well-formed principal of this (testnet-versioned) chain: an
 * ST…/SN… address, optionally followed by `.contract-name`.
 */
export function isTestnetPrincipal(value: string): boolean {
  const parts = value.split('.')
  if (parts.length > 2) return false
  if (parts.length === 2 && !CONTRACT_NAME.test(parts[1])) return false
  let address: AddressWire
  try {
    address = createAddress(parts[0])
  } catch {
    return false
  }
  const { singleSig, multiSig } = STACKS_DEVNET.addressVersion
  return (
    address.hash160.length === HASH160_HEX_LENGTH &&
    (address.version === singleSig || address.version === multiSig)
  )
}
