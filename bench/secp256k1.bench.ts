import { availableParallelism, cpus } from 'node:os'
import { test } from '@japa/runner'
import {
  AuthType,
  PubKeyEncoding,
  type SingleSigSpendingCondition,
  makeSTXTokenTransfer,
  publicKeyFromSignatureVrs,
  sigHashPreSign,
  type StacksTransactionWire,
} from '@stacks/transactions'
import { verifyOriginSignature } from '#chain/origin_signature'
import { secp256k1 } from '#chain/secp256k1'
import { TEST_KEYS } from '#tests/support/secp256k1'

/**
 * `npm run bench`: secp256k1 public-key recoveries per second on one core,
 * with the implementation the service uses (#chain/secp256k1) and with
 * @stacks/transactions' pure-JS one; then a payment's whole origin check
 * (sighash + recovery + signer hash): `verifyOriginSignature` against
 * `tx.verifyOrigin()`. Figures are CPU time of this process's one thread, so
 * the other core's load changes them less than wall time would.
 */
const TRANSACTIONS = 400
const ROUNDS = 5

/** Calls per second of CPU: the quietest of ROUNDS rounds over every item. */
function perCpuSecond<T>(items: T[], call: (item: T) => unknown) {
  for (const item of items.slice(0, 50)) call(item)
  let best = Number.POSITIVE_INFINITY
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.cpuUsage()
    for (const item of items) call(item)
    const used = process.cpuUsage(started)
    best = Math.min(best, used.user + used.system)
  }
  return items.length / (best / 1e6)
}

test.group('Benchmark', () => {
  test('secp256k1 recoveries/s per core: libsecp256k1 against stacks.js', async () => {
    const transactions: StacksTransactionWire[] = await Promise.all(
      Array.from({ length: TRANSACTIONS }, (_, index) =>
        makeSTXTokenTransfer({
          recipient: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
          amount: 5_000n,
          senderKey: TEST_KEYS[index % TEST_KEYS.length].compressed.privateKey,
          network: 'testnet',
          fee: 1_000n,
          nonce: BigInt(index),
        })
      )
    )
    // What each origin signature signed: the pre-sign hash verifyOrigin() recovers from.
    const signatures = transactions.map((tx) => {
      const { signature, fee, nonce } = tx.auth.spendingCondition as SingleSigSpendingCondition
      const hash = sigHashPreSign(tx.verifyBegin(), AuthType.Standard, fee, nonce)
      return { vrs: signature.data, hash }
    })

    const fast = perCpuSecond(signatures, ({ vrs, hash }) => {
      const bytes = Buffer.from(vrs, 'hex')
      return secp256k1.recoverPublicKey(Buffer.from(hash, 'hex'), bytes.subarray(1), bytes[0], true)
    })
    const stacks = perCpuSecond(signatures, ({ vrs, hash }) =>
      publicKeyFromSignatureVrs(hash, vrs, PubKeyEncoding.Compressed)
    )
    const fastOrigin = perCpuSecond(transactions, (tx) => verifyOriginSignature(tx))
    const stacksOrigin = perCpuSecond(transactions, (tx) => tx.verifyOrigin())

    const results: Record<string, string> = {
      'machine': `${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, Node ${process.version}`,
      'implementation in use': secp256k1.description,
      'recoveries/s per core, in use': fast.toFixed(0),
      'recoveries/s per core, stacks.js (@noble/secp256k1 1.7)': stacks.toFixed(0),
      'origin checks/s per core, verifyOriginSignature': fastOrigin.toFixed(0),
      'origin checks/s per core, tx.verifyOrigin()': stacksOrigin.toFixed(0),
      'speed-up, recovery / origin check': `${(fast / stacks).toFixed(1)}× / ${(fastOrigin / stacksOrigin).toFixed(1)}×`,
    }
    console.log('\nsecp256k1 benchmark')
    for (const [name, value] of Object.entries(results)) {
      console.log(`  ${name.padEnd(56)} ${value}`)
    }
  })
})
