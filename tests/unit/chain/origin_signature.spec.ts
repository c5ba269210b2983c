import { test } from '@japa/runner'
import fc from 'fast-check'
import {
  AddressHashMode,
  AuthType,
  PubKeyEncoding,
  StacksTransactionWire,
  createMessageSignature,
  createSingleSigSpendingCondition,
  createSponsoredAuth,
  createStandardAuth,
  createTokenTransferPayload,
  deserializeTransaction,
  isSingleSig,
  privateKeyToAddress,
  sigHashPreSign,
} from '@stacks/transactions'
import { verifyOriginSignature } from '#chain/origin_signature'
import { type Secp256k1, secp256k1 } from '#chain/secp256k1'
import {
  KEY_INDEX,
  type RecoverableSignature,
  type SignatureTamper,
  TEST_KEYS,
  pureJsSecp256k1,
  signHash,
  signingTampers,
  tallyCases,
  tamperName,
  tamperSignature,
  withHighS,
} from '#tests/support/secp256k1'

/**
 * Differential test: on random single-signature transactions — signed,
 * with a byte changed anywhere after signing, with a spoiled signature,
 * signed by another key than the origin's, with a high S — the fast path
 * (`verifyOriginSignature` on libsecp256k1) gives the verdict of
 * @stacks/transactions' own `tx.verifyOrigin()`. Deterministic: a fixed seed.
 */
const SEED = 25_2026
/** Each case costs one pure-JS recovery in verifyOrigin (~2–3 ms of CPU on this machine). */
const CASES = 10_000
/** The pure-JS fallback costs the same again per case. */
const FALLBACK_CASES = 200

type Tamper =
  | { kind: 'none' }
  | { kind: 'byte'; position: number; xor: number }
  | { kind: 'signature'; tamper: SignatureTamper }
  | { kind: 'other_key'; key: number }
  | { kind: 'high_s'; flipRecoveryId: boolean }

interface TransactionCase {
  key: number
  compressed: boolean
  network: 'mainnet' | 'testnet'
  hashMode: AddressHashMode.P2PKH | AddressHashMode.P2WPKH
  sponsored: boolean
  nonce: bigint
  fee: bigint
  amount: bigint
  memo: string
  recipient: number
  tamper: Tamper
}

const RECIPIENTS = {
  mainnet: TEST_KEYS.map(({ compressed }) => privateKeyToAddress(compressed.privateKey, 'mainnet')),
  testnet: TEST_KEYS.map(({ compressed }) => privateKeyToAddress(compressed.privateKey, 'testnet')),
}

const U64 = fc.bigInt(0n, 2n ** 64n - 1n)

const transactionCases: fc.Arbitrary<TransactionCase> = fc.record({
  key: KEY_INDEX,
  compressed: fc.boolean(),
  network: fc.constantFrom('mainnet', 'testnet'),
  hashMode: fc.oneof(
    { weight: 9, arbitrary: fc.constant(AddressHashMode.P2PKH as const) },
    { weight: 1, arbitrary: fc.constant(AddressHashMode.P2WPKH as const) }
  ),
  sponsored: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true)),
  nonce: U64,
  fee: U64,
  amount: U64,
  memo: fc.string({ unit: 'grapheme-ascii', maxLength: 34 }),
  recipient: KEY_INDEX,
  tamper: fc.oneof(
    { weight: 5, arbitrary: fc.constant({ kind: 'none' as const }) },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('byte' as const),
        position: fc.nat(),
        xor: fc.integer({ min: 1, max: 255 }),
      }),
    },
    signingTampers.signature,
    signingTampers.otherKey,
    signingTampers.highS
  ),
})

/** The case's transaction as a verifier receives it (decoded from bytes), or null when the tampered bytes do not decode. */
function transactionOf(testCase: TransactionCase): StacksTransactionWire | null {
  const keys = TEST_KEYS[testCase.key]
  const origin = testCase.compressed ? keys.compressed : keys.uncompressed
  // A segwit condition cannot be built over an uncompressed key; its bytes can.
  const buildMode =
    testCase.hashMode === AddressHashMode.P2WPKH && testCase.compressed
      ? AddressHashMode.P2WPKH
      : AddressHashMode.P2PKH
  const condition = createSingleSigSpendingCondition(
    buildMode,
    origin.publicKey,
    testCase.nonce,
    testCase.fee
  )
  condition.hashMode = testCase.hashMode
  const tx = new StacksTransactionWire({
    auth: testCase.sponsored ? createSponsoredAuth(condition) : createStandardAuth(condition),
    payload: createTokenTransferPayload(
      RECIPIENTS[testCase.network][testCase.recipient],
      testCase.amount,
      testCase.memo
    ),
    network: testCase.network,
  })

  const { tamper } = testCase
  const signer =
    tamper.kind === 'other_key'
      ? testCase.compressed
        ? TEST_KEYS[tamper.key].compressed
        : TEST_KEYS[tamper.key].uncompressed
      : origin
  const preSign = sigHashPreSign(tx.verifyBegin(), AuthType.Standard, testCase.fee, testCase.nonce)
  let signature = signHash(Buffer.from(preSign, 'hex'), signer.privateKey)
  if (tamper.kind === 'signature') signature = tamperSignature(signature, tamper.tamper)
  if (tamper.kind === 'high_s') signature = withHighS(signature, tamper.flipRecoveryId)
  condition.signature = createMessageSignature(vrsHex(signature))

  const bytes = tx.serializeBytes()
  if (tamper.kind === 'byte') bytes[tamper.position % bytes.length] ^= tamper.xor
  try {
    return deserializeTransaction(bytes)
  } catch {
    return null
  }
}

function vrsHex({ rs, recoveryId }: RecoverableSignature) {
  return recoveryId.toString(16).padStart(2, '0') + Buffer.from(rs).toString('hex')
}

/** @stacks/transactions' own verdict. */
function stacksVerdict(tx: StacksTransactionWire): boolean {
  try {
    tx.verifyOrigin()
    return true
  } catch {
    return false
  }
}

/** Runs the differential and returns how many cases of each kind each side accepted and refused. */
function differential(curve: Secp256k1, runs: number) {
  return tallyCases(transactionCases, { seed: SEED, runs }, (testCase) => {
    const tx = transactionOf(testCase)
    if (!tx || !isSingleSig(tx.auth.spendingCondition)) {
      return ['not a single-signature transaction']
    }
    const expected = stacksVerdict(tx)
    const verdict = verifyOriginSignature(tx, curve)
    if (verdict.ok !== expected) {
      throw new Error(
        `verifyOrigin() says ${expected}, verifyOriginSignature ${JSON.stringify(verdict)}`
      )
    }
    const encoding =
      tx.auth.spendingCondition.keyEncoding === PubKeyEncoding.Compressed
        ? 'compressed'
        : 'uncompressed'
    const verdictName = expected ? 'accepted' : 'refused'
    return [
      `${tamperName(testCase.tamper)} ${verdictName}`,
      `${testCase.network} ${encoding} ${verdictName}`,
      verdictName,
    ]
  })
}

test.group('Origin signature verification (differential against verifyOrigin)', () => {
  test('libsecp256k1 gives verifyOrigin() verdict on 10 000 random transactions', ({ assert }) => {
    const tally = differential(secp256k1, CASES)

    // Every kind of case was decided both ways where it can be, on both networks and encodings.
    assert.isAbove(tally.get('accepted') ?? 0, CASES / 5)
    assert.isAbove(tally.get('refused') ?? 0, CASES / 5)
    assert.isAbove(tally.get('none accepted') ?? 0, 0)
    assert.isAbove(tally.get('high_s flipped recovery id accepted') ?? 0, 0)
    assert.isAbove(tally.get('high_s same recovery id refused') ?? 0, 0)
    for (const kind of ['byte', 'signature', 'other_key']) {
      assert.isAbove(tally.get(`${kind} refused`) ?? 0, 0, kind)
    }
    for (const network of ['mainnet', 'testnet']) {
      for (const encoding of ['compressed', 'uncompressed']) {
        for (const verdict of ['accepted', 'refused']) {
          assert.isAbove(tally.get(`${network} ${encoding} ${verdict}`) ?? 0, 0)
        }
      }
    }
  }).timeout(120_000)

  test('the pure-JS fallback gives the same verdicts', ({ assert }) => {
    const tally = differential(pureJsSecp256k1, FALLBACK_CASES)

    assert.isAbove(tally.get('accepted') ?? 0, 0)
    assert.isAbove(tally.get('refused') ?? 0, 0)
  }).timeout(60_000)
})
