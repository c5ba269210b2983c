import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import fc from 'fast-check'
import { privateKeyToPublic } from '@stacks/transactions'
import { loadSecp256k1 } from '#chain/secp256k1'

/**
 * Fixtures of the differential tests of signature verification
 * (tests/unit/chain/origin_signature.spec.ts, tests/unit/auth/wallet_signature.spec.ts):
 * fixed keys, signing with libsecp256k1 (as fast as the verification under
 * test, so 10 000 cases stay quick; RFC 6979 and low S, the same signature
 * @stacks/transactions' own signer gives), signature tampering, and the
 * tampers and tally of cases both tests draw and count with.
 */

/** The pure-JS implementation the service falls back to when the native addon does not load. */
export const pureJsSecp256k1 = loadSecp256k1(() => {
  throw new Error('not loaded in this test')
})

/** The secp256k1 group order n. */
export const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

interface SigningBinding {
  ecdsaSign(hash: Uint8Array, secretKey: Uint8Array): { signature: Uint8Array; recid: number }
}
const libsecp256k1: SigningBinding = createRequire(import.meta.url)('secp256k1/bindings')

export interface TestKey {
  /** 64 hex digits, then `01` when its public key is used compressed (@stacks/transactions' form). */
  privateKey: string
  publicKey: string
}

/** Fixed keys, each in both forms: compressed and uncompressed public key. */
export const TEST_KEYS: { compressed: TestKey; uncompressed: TestKey }[] = Array.from(
  { length: 16 },
  (_, index) => {
    const secret = createHash('sha256').update(`secp256k1 test key ${index}`).digest('hex')
    const key = (privateKey: string) => ({
      privateKey,
      publicKey: privateKeyToPublic(privateKey) as string,
    })
    return { compressed: key(`${secret}01`), uncompressed: key(secret) }
  }
)

export interface RecoverableSignature {
  /** r ‖ s, 64 bytes. */
  rs: Uint8Array
  recoveryId: number
}

/** Signs a 32-byte hash with libsecp256k1: low S, deterministic. */
export function signHash(hash: Uint8Array, privateKey: string): RecoverableSignature {
  const secret = Buffer.from(privateKey.slice(0, 64), 'hex')
  const { signature, recid } = libsecp256k1.ecdsaSign(hash, secret)
  return { rs: new Uint8Array(signature), recoveryId: recid }
}

/**
 * The same signature with S replaced by n − S: still valid for the same key
 * when the recovery id's parity flips with it (the recovered R is mirrored).
 */
export function withHighS(
  { rs, recoveryId }: RecoverableSignature,
  flipRecoveryId: boolean
): RecoverableSignature {
  const s = BigInt(`0x${Buffer.from(rs.subarray(32)).toString('hex')}`)
  return {
    rs: concat(rs.subarray(0, 32), bytes32(CURVE_ORDER - s)),
    recoveryId: flipRecoveryId ? recoveryId ^ 1 : recoveryId,
  }
}

/** Ways to spoil a signature, from a flipped bit to scalars out of range. */
export type SignatureTamper =
  | { kind: 'flip_bit'; bit: number }
  | { kind: 'recovery_id'; value: number }
  | { kind: 'scalar'; which: 'r' | 's'; value: 'zero' | 'order' | 'order_plus_one' | 'max' }
  | { kind: 'small_r'; recoveryId: 2 | 3; r: bigint }

export function tamperSignature(
  { rs, recoveryId }: RecoverableSignature,
  tamper: SignatureTamper
): RecoverableSignature {
  const copy = new Uint8Array(rs)
  switch (tamper.kind) {
    case 'flip_bit':
      copy[tamper.bit >> 3] ^= 1 << (tamper.bit & 7)
      return { rs: copy, recoveryId }
    case 'recovery_id':
      return { rs: copy, recoveryId: tamper.value }
    case 'scalar': {
      const value = {
        zero: 0n,
        order: CURVE_ORDER,
        order_plus_one: CURVE_ORDER + 1n,
        max: 2n ** 256n - 1n,
      }[tamper.value]
      copy.set(bytes32(value), tamper.which === 'r' ? 0 : 32)
      return { rs: copy, recoveryId }
    }
    case 'small_r':
      // r + n is below the field's p only for r < p − n (~2^128): the one
      // case where recovery ids 2 and 3 name a point.
      copy.set(bytes32(tamper.r), 0)
      return { rs: copy, recoveryId: tamper.recoveryId }
  }
}

function bytes32(value: bigint): Uint8Array {
  return new Uint8Array(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'))
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts))
}

export const signatureTampers: fc.Arbitrary<SignatureTamper> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('flip_bit'), bit: fc.nat(511) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('recovery_id'), value: fc.nat(255) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('scalar'),
      which: fc.constantFrom('r', 's'),
      value: fc.constantFrom('zero', 'order', 'order_plus_one', 'max'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('small_r'),
      recoveryId: fc.constantFrom(2, 3),
      r: fc.bigInt(1n, 2n ** 128n),
    }),
  }
)

/** An index into TEST_KEYS. */
export const KEY_INDEX = fc.nat(TEST_KEYS.length - 1)

/**
 * The tampers both differential tests draw beside their own, each weighted for
 * the case's `fc.oneof`: a spoiled signature, a signature by another key, the
 * signature with a high S.
 */
export const signingTampers = {
  signature: {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('signature' as const), tamper: signatureTampers }),
  },
  otherKey: {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('other_key' as const), key: KEY_INDEX }),
  },
  highS: {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('high_s' as const), flipRecoveryId: fc.boolean() }),
  },
}

/** A tamper as a tally names it: its kind; a high S also says whether the recovery id flipped. */
export function tamperName(tamper: { kind: string; flipRecoveryId?: boolean }) {
  return tamper.kind === 'high_s'
    ? `high_s ${tamper.flipRecoveryId ? 'flipped' : 'same'} recovery id`
    : tamper.kind
}

/**
 * Runs a differential test on `runs` cases drawn with a fixed seed: `check`
 * throws where the two sides disagree and returns the names to count the case
 * under (it may read the counts of the cases before). Returns the counts.
 */
export function tallyCases<Case>(
  cases: fc.Arbitrary<Case>,
  { seed, runs }: { seed: number; runs: number },
  check: (testCase: Case, tally: ReadonlyMap<string, number>) => string[]
) {
  const tally = new Map<string, number>()
  fc.assert(
    fc.property(cases, (testCase) => {
      for (const name of check(testCase, tally)) tally.set(name, (tally.get(name) ?? 0) + 1)
    }),
    { seed, numRuns: runs, endOnFailure: true }
  )
  return tally
}
