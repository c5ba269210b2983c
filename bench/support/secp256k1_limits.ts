import {
  AuthType,
  PubKeyEncoding,
  type SingleSigSpendingCondition,
  makeSTXTokenTransfer,
  publicKeyFromSignatureVrs,
  sigHashPreSign,
  type StacksTransactionWire,
} from '@stacks/transactions'
import { secp256k1 } from '#chain/secp256k1'
import { TEST_KEYS } from '#tests/support/secp256k1'

/**
 * Calls per second of CPU: the quietest of `rounds` rounds over every item.
 * CPU time of this process's one thread, so the other core's load changes it
 * less than wall time would.
 */
export function perCpuSecond<T>(items: T[], call: (item: T) => unknown, rounds = 5) {
  for (const item of items.slice(0, 50)) call(item)
  let best = Number.POSITIVE_INFINITY
  for (let round = 0; round < rounds; round++) {
    const started = process.cpuUsage()
    for (const item of items) call(item)
    const used = process.cpuUsage(started)
    best = Math.min(best, used.user + used.system)
  }
  return items.length / (best / 1e6)
}

/** `count` signed STX transfers, by the test keys in turn. */
export function signedTransfers(count: number): Promise<StacksTransactionWire[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
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
}

/**
 * secp256k1 public-key recoveries per second on one core, of the origin
 * signatures of `transactions` (what verifyOrigin() recovers from): with the
 * implementation the service uses (#chain/secp256k1) and with
 * @stacks/transactions' pure-JS one.
 */
export function recoveriesPerCore(transactions: StacksTransactionWire[]) {
  const signatures = transactions.map((tx) => {
    const { signature, fee, nonce } = tx.auth.spendingCondition as SingleSigSpendingCondition
    const hash = sigHashPreSign(tx.verifyBegin(), AuthType.Standard, fee, nonce)
    return { vrs: signature.data, hash }
  })
  return {
    description: secp256k1.description,
    inUse: perCpuSecond(signatures, ({ vrs, hash }) => {
      const bytes = Buffer.from(vrs, 'hex')
      return secp256k1.recoverPublicKey(Buffer.from(hash, 'hex'), bytes.subarray(1), bytes[0], true)
    }),
    stacks: perCpuSecond(signatures, ({ vrs, hash }) =>
      publicKeyFromSignatureVrs(hash, vrs, PubKeyEncoding.Compressed)
    ),
  }
}
