import { test } from '@japa/runner'
import fc from 'fast-check'
import { hashMessage, verifyMessageSignatureRsv } from '@stacks/encryption'
import {
  PubKeyEncoding,
  publicKeyFromSignatureRsv,
  publicKeyToAddress,
  uncompressPublicKey,
} from '@stacks/transactions'
import { formatSiwsMessage } from '#auth/siws_message'
import { type SignedMessage, isSignedBy } from '#auth/wallet_signature'
import { NETWORKS } from '#chain/network'
import { type Secp256k1, secp256k1 } from '#chain/secp256k1'
import { linkChallenges } from '#provider_accounts/withdrawal_wallet_consent'
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
 * Differential test of signed-message verification (Sign-In With Stacks,
 * wallet-link and owner-approval challenges): on random messages, keys,
 * networks, signatures and public-key hints, `isSignedBy` on libsecp256k1
 * gives the verdict of the same check done with @stacks/transactions'
 * recovery of @stacks/encryption's message hash, as it was before the fast
 * path. Every message it accepts, @stacks/encryption's own
 * `verifyMessageSignatureRsv` accepts too (checked on a tenth of them: it costs
 * a pure-JS verification each). Deterministic: a fixed seed.
 */
const SEED = 25_2028
const CASES = 10_000
const FALLBACK_CASES = 200

const RSV_SIGNATURE = /^(?:0x)?([0-9a-fA-F]{130})$/
const PUBLIC_KEY = /^(?:0x)?((?:02|03)[0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/

/**
 * The verdict with @stacks/transactions' recovery, as isSignedBy decided it
 * before libsecp256k1. The uncompressed key is the compressed one's point
 * written out (what a second recovery in the other encoding returns) to spare
 * a second pure-JS recovery.
 */
function stacksVerdict({ message, signature, address, network, publicKeyHint }: SignedMessage) {
  const rsv = RSV_SIGNATURE.exec(signature)?.[1].toLowerCase()
  if (!rsv) return { signed: false }
  const messageHash = Buffer.from(hashMessage(message)).toString('hex')
  let keys: string[]
  try {
    const compressed = publicKeyFromSignatureRsv(messageHash, rsv, PubKeyEncoding.Compressed)
    keys = [compressed, uncompressPublicKey(compressed)]
  } catch {
    return { signed: false }
  }
  if (publicKeyHint !== undefined) {
    const hint = PUBLIC_KEY.exec(publicKeyHint)?.[1].toLowerCase()
    if (!hint || !keys.includes(hint)) return { signed: false }
  }
  const key = keys.find(
    (candidate) => publicKeyToAddress(network.addressVersion.singleSig, candidate) === address
  )
  return key ? { signed: true, key } : { signed: false }
}

type Message =
  | { kind: 'sign_in'; nonce: string; issuedAt: number }
  | { kind: 'link' | 'approve'; handle: string; linked: number }
  | { kind: 'any'; text: string }

type Tamper =
  | { kind: 'none' }
  | { kind: 'message' }
  | { kind: 'signature'; tamper: SignatureTamper }
  | { kind: 'other_key'; key: number }
  | { kind: 'other_network' }
  | { kind: 'high_s'; flipRecoveryId: boolean }

type Hint = 'none' | 'compressed' | 'uncompressed' | 'prefixed' | 'other_key' | 'malformed'

interface MessageCase {
  key: number
  compressed: boolean
  network: 'mainnet' | 'testnet'
  message: Message
  tamper: Tamper
  hint: Hint
  format: 'plain' | 'prefixed' | 'uppercase'
}

const messageCases: fc.Arbitrary<MessageCase> = fc.record({
  key: KEY_INDEX,
  compressed: fc.boolean(),
  network: fc.constantFrom('mainnet', 'testnet'),
  message: fc.oneof(
    fc.record({
      kind: fc.constant('sign_in' as const),
      nonce: fc.stringMatching(/^[0-9a-f]{32}$/),
      issuedAt: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    }),
    fc.record({
      kind: fc.constantFrom('link' as const, 'approve' as const),
      handle: fc.stringMatching(/^[a-z][a-z0-9-]{2,30}$/),
      linked: KEY_INDEX,
    }),
    fc.record({
      kind: fc.constant('any' as const),
      text: fc.string({ unit: 'grapheme', maxLength: 300 }),
    })
  ),
  tamper: fc.oneof(
    { weight: 5, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'message' as const }) },
    signingTampers.signature,
    signingTampers.otherKey,
    { weight: 1, arbitrary: fc.constant({ kind: 'other_network' as const }) },
    signingTampers.highS
  ),
  hint: fc.constantFrom<Hint>(
    'none',
    'none',
    'none',
    'compressed',
    'uncompressed',
    'prefixed',
    'other_key',
    'malformed'
  ),
  format: fc.constantFrom('plain', 'plain', 'prefixed', 'uppercase'),
})

const ORIGIN = { domain: 'tollbooth.example', uri: 'https://tollbooth.example' }

function addressOf(publicKey: string, network: 'mainnet' | 'testnet') {
  return publicKeyToAddress(NETWORKS[network].addressVersion.singleSig, publicKey)
}

function textOf(message: Message, address: string, network: 'mainnet' | 'testnet') {
  switch (message.kind) {
    case 'sign_in':
      return formatSiwsMessage({
        ...ORIGIN,
        chainId: NETWORKS[network].chainId,
        address,
        statement: 'Sign in to Tollbooth.',
        nonce: message.nonce,
        issuedAt: new Date(message.issuedAt),
        expiresAt: new Date(message.issuedAt + 300_000),
      })
    case 'link':
    case 'approve': {
      const linked = addressOf(TEST_KEYS[message.linked].compressed.publicKey, network)
      const challenges = linkChallenges({ handle: message.handle, ownerWallet: address }, linked)
      const challenge = message.kind === 'link' ? challenges.wallet : challenges.owner
      return challenge?.statement ?? challenges.wallet.statement
    }
    case 'any':
      return message.text
  }
}

/** The case as isSignedBy receives it from a challenge answer. */
function signedMessageOf(testCase: MessageCase): SignedMessage {
  const form = testCase.compressed ? 'compressed' : 'uncompressed'
  const own = TEST_KEYS[testCase.key][form]
  const { tamper } = testCase
  const address = addressOf(own.publicKey, testCase.network)
  const message = textOf(testCase.message, address, testCase.network)
  const signer = tamper.kind === 'other_key' ? TEST_KEYS[tamper.key][form] : own
  let signature = signHash(hashMessage(message), signer.privateKey)
  if (tamper.kind === 'signature') signature = tamperSignature(signature, tamper.tamper)
  if (tamper.kind === 'high_s') signature = withHighS(signature, tamper.flipRecoveryId)

  const otherNetwork = testCase.network === 'mainnet' ? 'testnet' : 'mainnet'
  return {
    message: tamper.kind === 'message' ? `${message} ` : message,
    signature: formatted(rsvHex(signature), testCase.format),
    address: tamper.kind === 'other_network' ? addressOf(own.publicKey, otherNetwork) : address,
    network: NETWORKS[testCase.network],
    publicKeyHint: hintOf(testCase),
  }
}

function hintOf({ hint, key, format }: MessageCase): string | undefined {
  const keys = TEST_KEYS[key]
  switch (hint) {
    case 'none':
      return undefined
    case 'compressed':
      return formatted(keys.compressed.publicKey, format)
    case 'uncompressed':
      return formatted(keys.uncompressed.publicKey, format)
    case 'prefixed':
      return `0x${keys.compressed.publicKey}`
    case 'other_key':
      return TEST_KEYS[(key + 1) % TEST_KEYS.length].compressed.publicKey
    case 'malformed':
      return keys.compressed.publicKey.slice(0, 40)
  }
}

function rsvHex({ rs, recoveryId }: RecoverableSignature) {
  return Buffer.from(rs).toString('hex') + recoveryId.toString(16).padStart(2, '0')
}

function formatted(hexText: string, format: MessageCase['format']) {
  if (format === 'prefixed') return `0x${hexText}`
  if (format === 'uppercase') return hexText.toUpperCase()
  return hexText
}

function differential(curve: Secp256k1, runs: number) {
  return tallyCases(messageCases, { seed: SEED, runs }, (testCase, tally) => {
    const signed = signedMessageOf(testCase)
    const expected = stacksVerdict(signed)
    const verdict = isSignedBy(signed, curve)
    if (verdict !== expected.signed) {
      throw new Error(`@stacks/transactions says ${expected.signed}, isSignedBy ${verdict}`)
    }
    const verdictName = expected.signed ? 'accepted' : 'refused'
    const names = [
      `${tamperName(testCase.tamper)} ${verdictName}`,
      `${testCase.message.kind} ${verdictName}`,
      `${testCase.network} ${testCase.compressed ? 'compressed' : 'uncompressed'} ${verdictName}`,
      verdictName,
    ]
    if (expected.key && (tally.get('accepted') ?? 0) % 10 === 0) {
      const bySignatureCheck = verifyMessageSignatureRsv({
        message: signed.message,
        signature: signed.signature.replace(/^0x/, '').toLowerCase(),
        publicKey: expected.key,
      })
      if (!bySignatureCheck) throw new Error('verifyMessageSignatureRsv refuses it')
      names.push('checked by @stacks/encryption')
    }
    return names
  })
}

test.group('Signed message verification (differential against @stacks/transactions)', () => {
  test('libsecp256k1 gives the stacks.js verdict on 10 000 signed messages', ({ assert }) => {
    const tally = differential(secp256k1, CASES)

    assert.isAbove(tally.get('accepted') ?? 0, CASES / 5)
    assert.isAbove(tally.get('refused') ?? 0, CASES / 5)
    assert.isAbove(tally.get('checked by @stacks/encryption') ?? 0, CASES / 100)
    assert.isAbove(tally.get('high_s flipped recovery id accepted') ?? 0, 0)
    for (const kind of ['message', 'signature', 'other_key', 'other_network']) {
      assert.isAbove(tally.get(`${kind} refused`) ?? 0, 0, kind)
    }
    for (const kind of ['sign_in', 'link', 'approve', 'any']) {
      assert.isAbove(tally.get(`${kind} accepted`) ?? 0, 0, kind)
    }
    for (const network of ['mainnet', 'testnet']) {
      for (const encoding of ['compressed', 'uncompressed']) {
        assert.isAbove(tally.get(`${network} ${encoding} accepted`) ?? 0, 0)
      }
    }
  }).timeout(120_000)

  test('the pure-JS fallback gives the same verdicts', ({ assert }) => {
    const tally = differential(pureJsSecp256k1, FALLBACK_CASES)

    assert.isAbove(tally.get('accepted') ?? 0, 0)
    assert.isAbove(tally.get('refused') ?? 0, 0)
  }).timeout(60_000)
})
