import { test } from '@japa/runner'
import { createNetwork } from '@stacks/network'
import {
  broadcastTransaction,
  fetchFeeEstimate,
  fetchNonce,
  makeSTXTokenTransfer,
} from '@stacks/transactions'
import { DEFAULT_ACCOUNT_BALANCE } from '../src/index.js'
import { RECIPIENT, SENDER, useDevnet } from '../src/testing.js'
import { txStatus } from './helpers.js'

test.group('Devnet with an unmodified stacks.js client', (group) => {
  const devnet = useDevnet(group, { blockTimeMs: 0 })

  test('a transfer built with fetched fee and nonce is broadcast and mined without calling mine()', async ({
    assert,
  }) => {
    const network = createNetwork({ network: 'devnet', client: { baseUrl: devnet().url } })

    const transaction = await makeSTXTokenTransfer({
      recipient: RECIPIENT,
      amount: 123_456n,
      senderKey: SENDER.privateKey,
      network,
    })
    const fee = transaction.auth.spendingCondition.fee
    assert.isAtLeast(Number(fee), transaction.serializeBytes().length)
    assert.equal(transaction.auth.spendingCondition.nonce, 0n)

    const result = await broadcastTransaction({ transaction, network })
    assert.deepEqual(result, { txid: transaction.txid() })

    // Instant blocks: mined on the tick after the broadcast, before its answer is read.
    const mined = await txStatus(devnet(), transaction.txid())
    assert.equal(mined.body.tx_status, 'success')
    assert.isAbove(Number(mined.body.block_height), 0)
    assert.equal(devnet().balanceOf(RECIPIENT), DEFAULT_ACCOUNT_BALANCE + 123_456n)
    assert.equal(await fetchNonce({ address: SENDER.address, network }), 1n)
    assert.isAtLeast(Number(await fetchFeeEstimate({ transaction, network })), 180)
  })

  test('a rejection reaches stacks.js as a TxBroadcastResultRejected', async ({ assert }) => {
    const network = createNetwork({ network: 'devnet', client: { baseUrl: devnet().url } })
    const transaction = await makeSTXTokenTransfer({
      recipient: RECIPIENT,
      amount: 1n,
      fee: 1n,
      nonce: 0n,
      senderKey: SENDER.privateKey,
      network,
    })

    const result = await broadcastTransaction({ transaction, network })
    assert.containsSubset(result, {
      error: 'transaction rejected',
      reason: 'FeeTooLow',
      txid: transaction.txid(),
    })
  })
})
