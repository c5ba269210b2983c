import {
  AddressVersion,
  AuthType,
  PubKeyEncoding,
  addressFromPublicKeys,
  createStacksPublicKey,
  isSingleSig,
  sigHashPreSign,
  type StacksTransactionWire,
} from '@stacks/transactions'
import { errorMessage } from '#chain/canonical_transaction'
import { type Secp256k1, secp256k1 } from '#chain/secp256k1'

export type OriginVerification = { ok: true } | { ok: false; reason: string }

/**
 * The verdict of @stacks/transactions' `tx.verifyOrigin()` on a
 * single-signature origin, with the key recovered by `curve` instead of its
 * pure-JS one. The hashes are its own: the pre-sign hash of the transaction
 * with its authorization cleared (`verifyBegin`), the origin's auth type
 * (Standard, sponsored or not), fee and nonce; the key recovered from the
 * origin's signature in the condition's key encoding must hash to the
 * condition's signer. A multi-signature origin is refused: payments accept
 * only P2PKH (decodeAndCheckTransaction refuses the others first).
 */
export function verifyOriginSignature(
  tx: StacksTransactionWire,
  curve: Secp256k1 = secp256k1
): OriginVerification {
  const condition = tx.auth.spendingCondition
  if (!isSingleSig(condition)) {
    return { ok: false, reason: 'a multi-signature origin is not verified here' }
  }
  try {
    const preSign = sigHashPreSign(
      tx.verifyBegin(),
      AuthType.Standard,
      condition.fee,
      condition.nonce
    )
    const signature = Buffer.from(condition.signature.data, 'hex')
    const key = curve.recoverPublicKey(
      Buffer.from(preSign, 'hex'),
      signature.subarray(1),
      signature[0],
      condition.keyEncoding === PubKeyEncoding.Compressed
    )
    if (!key) return { ok: false, reason: 'the signature recovers no public key' }
    // The address version does not enter the hash.
    const signer = addressFromPublicKeys(AddressVersion.MainnetSingleSig, condition.hashMode, 1, [
      createStacksPublicKey(key),
    ]).hash160
    if (signer !== condition.signer) {
      return {
        ok: false,
        reason: `the signing key hashes to ${signer}, not to the origin's ${condition.signer}`,
      }
    }
    return { ok: true }
  } catch (error) {
    // What @stacks/transactions throws for the hashes or the address (e.g. an
    // uncompressed key in a segwit hash mode).
    return { ok: false, reason: errorMessage(error) }
  }
}
