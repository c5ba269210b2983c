import encryption from '@adonisjs/core/services/encryption'
import { randomPrivateKey } from '@stacks/transactions'
import { addressOfPrivateKey } from '#chain/address'
import type { NetworkPreset } from '#chain/network'

/**
 * The custodial wallet generated at signup: shown as the provider's identity,
 * informational only (revenue is a ledger balance, paid out from the platform
 * wallet). Its key is kept encrypted with APP_KEY, never shown.
 */
export function generateCustodialWallet(network: NetworkPreset) {
  const privateKey = randomPrivateKey()
  return {
    address: addressOfPrivateKey(privateKey, network),
    encryptedKey: encryption.encrypt(privateKey),
  }
}
