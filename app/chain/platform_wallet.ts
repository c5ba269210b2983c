import { Secret } from '@adonisjs/core/helpers'
import { addressOfPrivateKey } from '#chain/address'
import type { NetworkPreset } from '#chain/network'

/**
 * The platform wallet: payTo of every payment, source of every withdrawal.
 * The key is wrapped in a Secret so it prints as "[redacted]" in logs,
 * inspection and JSON; only signing code calls release().
 */
export class PlatformWallet {
  readonly address: string
  readonly privateKey: Secret<string>

  constructor(privateKey: string, network: NetworkPreset) {
    this.privateKey = new Secret(privateKey)
    this.address = addressOfPrivateKey(privateKey, network)
  }
}
