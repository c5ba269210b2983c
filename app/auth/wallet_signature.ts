import { hashMessage } from '@stacks/encryption'
import { PubKeyEncoding, publicKeyFromSignatureRsv, publicKeyToAddress } from '@stacks/transactions'
import type { NetworkPreset } from '#chain/network'

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
export function isSignedBy({
  message,
  signature,
  address,
  network,
  publicKeyHint,
}: SignedMessage): boolean {
  const keys = recoverPublicKeys(message, signature)
  if (!keys) return false
  if (publicKeyHint !== undefined) {
    const hint = PUBLIC_KEY.exec(publicKeyHint)?.[1].toLowerCase()
    if (!hint || !keys.includes(hint)) return false
  }
  return keys.some((key) => publicKeyToAddress(network.addressVersion.singleSig, key) === address)
}

/** The signer's key, compressed and uncompressed (addresses of either form exist), or null. */
function recoverPublicKeys(message: string, signature: string): string[] | null {
  const rsv = RSV_SIGNATURE.exec(signature)?.[1].toLowerCase()
  if (!rsv) return null
  const messageHash = Buffer.from(hashMessage(message)).toString('hex')
  try {
    return [
      publicKeyFromSignatureRsv(messageHash, rsv, PubKeyEncoding.Compressed),
      publicKeyFromSignatureRsv(messageHash, rsv, PubKeyEncoding.Uncompressed),
    ]
  } catch {
    // Well-formed hex that is no valid signature (r or s out of range, bad recovery id).
    return null
  }
}
