import { availableParallelism, cpus } from 'node:os'
import { test } from '@japa/runner'
import { verifyOriginSignature } from '#chain/origin_signature'
import { perCpuSecond, recoveriesPerCore, signedTransfers } from './support/secp256k1_limits.js'
import { recordFigure } from './support/summary.js'

/**
 * `npm run bench`: secp256k1 public-key recoveries per second on one core,
 * with the implementation the service uses (#chain/secp256k1) and with
 * @stacks/transactions' pure-JS one; then a payment's whole origin check
 * (sighash + recovery + signer hash): `verifyOriginSignature` against
 * `tx.verifyOrigin()`. Figures are CPU time of this process's one thread.
 */
const TRANSACTIONS = 400

test.group('Benchmark', () => {
  test('secp256k1 recoveries/s per core: libsecp256k1 against stacks.js', async () => {
    const transactions = await signedTransfers(TRANSACTIONS)
    const recoveries = recoveriesPerCore(transactions)
    const fastOrigin = perCpuSecond(transactions, (tx) => verifyOriginSignature(tx))
    const stacksOrigin = perCpuSecond(transactions, (tx) => tx.verifyOrigin())

    const results: Record<string, string> = {
      'machine': `${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, Node ${process.version}`,
      'implementation in use': recoveries.description,
      'recoveries/s per core, in use': recoveries.inUse.toFixed(0),
      'recoveries/s per core, stacks.js (@noble/secp256k1 1.7)': recoveries.stacks.toFixed(0),
      'origin checks/s per core, verifyOriginSignature': fastOrigin.toFixed(0),
      'origin checks/s per core, tx.verifyOrigin()': stacksOrigin.toFixed(0),
      'speed-up, recovery / origin check': `${(recoveries.inUse / recoveries.stacks).toFixed(1)}× / ${(fastOrigin / stacksOrigin).toFixed(1)}×`,
    }
    console.log('\nsecp256k1 benchmark')
    for (const [name, value] of Object.entries(results)) {
      console.log(`  ${name.padEnd(56)} ${value}`)
    }
    recordFigure(
      'secp256k1',
      'origin checks/s per core, in use / stacks.js',
      `${fastOrigin.toFixed(0)} / ${stacksOrigin.toFixed(0)}`
    )
  })
})
