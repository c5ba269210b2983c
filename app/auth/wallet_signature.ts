import { hashMessage } from '@stacks/encryption'
import { publicKeyToAddress } from '@stacks/transactions'
import type { NetworkPreset } from '#chain/network'
import { type Secp256k1, secp256k1 } from '#chain/secp256k1'

/** 65 bytes r ‖ s ‖ recovery id, as @stacks/connect `stx_signMessage` returns it. */
const RSV_SIGNATURE = /^(?:0x)?([0-9a-fA-F]{130})$/
const PUBLIC_KEY = /^(?:0x)?((?:02|03)[0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/

export interface SignedMessage {
  message: string
  /** RSV hex, optionally 0x-prefixed. */
  signature: string
  /** The wallet that must have signed. */
  address: string
  network: NetworkPreset
  /** The key the caller says signed: a hint that must agree, never a substitute. */
  publicKeyHint?: string
}

/**
 * Whether `address` signed `message` (Stacks signed-message hashing). The
 * public key is recovered from the signature itself and the address derived
 * from it for the network must be the wallet's: a caller-supplied key is
 * never trusted (it only has to name the recovered key when given).
 */
export function isSignedBy(
  { message, signature, address, network, publicKeyHint }: SignedMessage,
  curve: Secp256k1 = secp256k1
): boolean {
  const keys = recoverPublicKeys(message, signature, curve)
  if (!keys) return false
  if (publicKeyHint !== undefined) {
    const hint = PUBLIC_KEY.exec(publicKeyHint)?.[1].toLowerCase()
    if (!hint || !keys.includes(hint)) return false
  }
  return keys.some((key) => publicKeyToAddress(network.addressVersion.singleSig, key) === address)
}

/** The signer's key, compressed and uncompressed (addresses of either form exist), or null. */
function recoverPublicKeys(message: string, signature: string, curve: Secp256k1): string[] | null {
  const rsv = RSV_SIGNATURE.exec(signature)?.[1]
  if (!rsv) return null
  const bytes = Buffer.from(rsv, 'hex')
  const hash = hashMessage(message)
  const keys: string[] = []
  for (const compressed of [true, false]) {
    const key = curve.recoverPublicKey(hash, bytes.subarray(0, 64), bytes[64], compressed)
    // Well-formed hex that is no valid signature (r or s out of range, bad recovery id).
    if (!key) return null
    keys.push(Buffer.from(key).toString('hex'))
  }
  return keys
}
