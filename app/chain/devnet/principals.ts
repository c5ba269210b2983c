import { checkAddress } from '../address.js'
import { NETWORKS } from '../network.js'

const CONTRACT_NAME = /^[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39}$/

/**
 * True for a well-formed principal of this (testnet-versioned) chain: an
 * ST…/SN… address, optionally followed by `.contract-name`.
 */
export function isTestnetPrincipal(value: string): boolean {
  const parts = value.split('.')
  if (parts.length > 2) return false
  if (parts.length === 2 && !CONTRACT_NAME.test(parts[1])) return false
  return checkAddress(parts[0], NETWORKS.devnet).valid
}
