import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import fc from 'fast-check'
import { loadSecp256k1, secp256k1 } from '#chain/secp256k1'
import {
  TEST_KEYS,
  pureJsSecp256k1,
  signHash,
  signatureTampers,
  tamperSignature,
  withHighS,
} from '#tests/support/secp256k1'

const SEED = 25_2027
const CASES = 1_000

const hex = (bytes: Uint8Array | null) => bytes && Buffer.from(bytes).toString('hex')

test.group('secp256k1 recovery', () => {
  test('the native libsecp256k1 addon loads here (npm ci installs its prebuilt binary)', ({
    assert,
  }) => {
    assert.match(secp256k1.description, /^libsecp256k1 /)
  })

  test('falls back to the pure-JS recovery of @stacks/transactions when the addon does not load', ({
    assert,
  }) => {
    const fallback = loadSecp256k1(() => {
      throw new Error('No native build was found')
    })
    const hash = createHash('sha256').update('hello').digest()
    const { rs, recoveryId } = signHash(hash, TEST_KEYS[0].compressed.privateKey)

    assert.equal(
      fallback.description,
      'pure JS of @stacks/transactions (@noble/secp256k1); libsecp256k1 did not load: No native build was found'
    )
    assert.equal(
      hex(fallback.recoverPublicKey(hash, rs, recoveryId, true)),
      TEST_KEYS[0].compressed.publicKey
    )
  })

  test('libsecp256k1 and the pure-JS fallback recover the same key or none from any signature', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.nat(TEST_KEYS.length - 1),
        fc.oneof(
          fc.constant({ kind: 'none' as const }),
          fc.record({ kind: fc.constant('high_s' as const), flip: fc.boolean() }),
          fc.record({ kind: fc.constant('tampered' as const), tamper: signatureTampers })
        ),
        fc.boolean(),
        (hash, key, change, compressed) => {
          let signature = signHash(hash, TEST_KEYS[key].compressed.privateKey)
          if (change.kind === 'high_s') signature = withHighS(signature, change.flip)
          if (change.kind === 'tampered') signature = tamperSignature(signature, change.tamper)
          const { rs, recoveryId } = signature
          const native = hex(secp256k1.recoverPublicKey(hash, rs, recoveryId, compressed))
          const pureJs = hex(pureJsSecp256k1.recoverPublicKey(hash, rs, recoveryId, compressed))
          if (native !== pureJs) throw new Error(`libsecp256k1 ${native}, pure JS ${pureJs}`)
        }
      ),
      { seed: SEED, numRuns: CASES, endOnFailure: true }
    )
  }).timeout(60_000)
})
