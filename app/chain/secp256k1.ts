import { createRequire } from 'node:module'
import { PubKeyEncoding, publicKeyFromSignatureVrs } from '@stacks/transactions'
import { errorMessage } from '#chain/canonical_transaction'

/**
 * secp256k1 public-key recovery, the one place it is done: a payment's origin
 * signature (#chain/origin_signature) and a signed message (#auth/wallet_signature).
 */
export interface Secp256k1 {
  /** Which implementation answers, for the start-up log line. */
  readonly description: string
  /**
   * The key that signed the 32-byte `hash` (33 bytes compressed, 65
   * uncompressed), or null when the signature recovers none: r or s outside
   * [1, n − 1], a recovery id other than 0–3, no curve point for r. A high S
   * is accepted, as @stacks/transactions accepts it.
   */
  recoverPublicKey(
    hash: Uint8Array,
    /** r ‖ s, 64 bytes. */
    signature: Uint8Array,
    recoveryId: number,
    compressed: boolean
  ): Uint8Array | null
}

/** The part of the `secp256k1` package's native binding used here. */
interface Libsecp256k1 {
  ecdsaRecover(
    signature: Uint8Array,
    recoveryId: number,
    hash: Uint8Array,
    compressed: boolean
  ): Uint8Array
}

/**
 * libsecp256k1 through the `secp256k1` package's N-API addon (its prebuilt
 * linux-x64 binary, no compiler needed): ~25 times faster than the pure-JS
 * recovery here (docs/performance.md). `secp256k1/bindings` throws when the
 * addon does not load, where the package's main entry would quietly fall back
 * to `elliptic`.
 */
function libsecp256k1(binding: Libsecp256k1): Secp256k1 {
  return {
    description: 'libsecp256k1 (native addon of the secp256k1 package)',
    recoverPublicKey(hash, signature, recoveryId, compressed) {
      if (!Number.isInteger(recoveryId) || recoveryId < 0 || recoveryId > 3) return null
      try {
        return binding.ecdsaRecover(signature, recoveryId, hash, compressed)
      } catch {
        return null
      }
    },
  }
}

/** The pure-JS recovery @stacks/transactions itself uses (its pinned @noble/secp256k1 1.7). */
function stacksJs(loadError: string): Secp256k1 {
  return {
    description: `pure JS of @stacks/transactions (@noble/secp256k1); libsecp256k1 did not load: ${loadError}`,
    recoverPublicKey(hash, signature, recoveryId, compressed) {
      const vrs = recoveryId.toString(16).padStart(2, '0') + Buffer.from(signature).toString('hex')
      try {
        const key = publicKeyFromSignatureVrs(
          Buffer.from(hash).toString('hex'),
          vrs,
          compressed ? PubKeyEncoding.Compressed : PubKeyEncoding.Uncompressed
        )
        return new Uint8Array(Buffer.from(key, 'hex'))
      } catch {
        return null
      }
    },
  }
}

const require = createRequire(import.meta.url)

/** libsecp256k1 when its addon loads, else the pure-JS recovery; `load` is replaceable for tests. */
export function loadSecp256k1(
  load: () => Libsecp256k1 = () => require('secp256k1/bindings')
): Secp256k1 {
  try {
    return libsecp256k1(load())
  } catch (error) {
    return stacksJs(errorMessage(error))
  }
}

/** The process's one implementation, chosen once; ChainProvider logs which at start. */
export const secp256k1 = loadSecp256k1()
