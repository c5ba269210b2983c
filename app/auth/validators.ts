import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { addressToString, createAddress } from '@stacks/transactions'
import { type AddressCheck, checkAddress } from '#chain/address'
import type { NetworkPreset } from '#chain/network'
import { currentNetwork } from '#auth/siws_message'

/** Why a value cannot sign in on the network, or null when it can. */
function refusalOf(check: AddressCheck, network: NetworkPreset): string | null {
  if (check.valid) {
    return check.kind === 'multi_sig'
      ? 'must be a single-signature wallet (a multisig cannot sign a message)'
      : null
  }
  switch (check.reason) {
    case 'malformed':
      return 'must be a Stacks address'
    case 'contract_principal':
      return 'must be a wallet, not a contract principal'
    case 'wrong_network':
      return `must be a ${network.name} address (${network.name === 'mainnet' ? 'SP' : 'ST'}…)`
  }
}

/**
 * A single-signature Stacks address of the configured network (SP… on
 * mainnet, ST… on testnet and devnet), rewritten to its canonical c32
 * spelling so it compares equal to the address derived from a signature.
 */
const walletOfNetwork = vine.createRule(
  (value: unknown, _options: undefined, field: FieldContext) => {
    const network = currentNetwork()
    const check = checkAddress(value, network)
    const refusal = refusalOf(check, network)
    if (refusal !== null || !check.valid) {
      field.report(`The ${field.name} field ${refusal}`, 'stacksAddress', field)
      return
    }
    field.mutate(addressToString(createAddress(check.address)), field)
  }
)

/** A wallet that can sign a challenge; reusable by other domains (e.g. wallet linking). */
export const stacksWalletAddress = () => vine.string().trim().maxLength(64).use(walletOfNetwork())

/** The nonce of an issued challenge. */
export const challengeNonce = () => vine.string().trim().minLength(1).maxLength(128)

/**
 * A signature of a challenge, or the public key hint sent with it. Their
 * format is checked when the signature is verified (a malformed one is 401
 * signature_invalid, like a wrong one).
 */
export const challengeSignature = () => vine.string().maxLength(1024)

export const nonceRequestValidator = vine.create({
  wallet_address: stacksWalletAddress(),
})

/** POST /auth/verify; `publicKey` is accepted as an alias of `public_key`. */
export const verifyRequestValidator = vine.create({
  wallet_address: stacksWalletAddress(),
  nonce: challengeNonce(),
  signature: challengeSignature(),
  public_key: challengeSignature().optional(),
  publicKey: challengeSignature().optional(),
  message: vine.string().maxLength(8192).optional(),
})

/**
 * The `message` field exactly as sent. The JSON body parser trims strings,
 * and a message sent along must equal the issued one byte for byte, so it is
 * read again from the raw body (only JSON bodies get this far).
 */
export function messageAsSent(rawBody: string | null, validated: string | undefined) {
  if (validated === undefined || rawBody === null) return validated
  const sent = (JSON.parse(rawBody) as { message?: unknown } | null)?.message
  return typeof sent === 'string' ? sent : validated
}
