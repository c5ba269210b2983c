import { test } from '@japa/runner'
import { STACKS_DEVNET } from '@stacks/network'
import { Cl, makeContractCall, makeSTXTokenTransfer, randomPrivateKey } from '@stacks/transactions'
import { FEE, SENDER, broadcast, transfer, useDevnet } from '../src/testing.js'
import { broadcastStatus, type Rejection } from './helpers.js'

/** Offset of the 65-byte signature in a standard single-sig transaction. */
const SIGNATURE_OFFSET = 1 + 4 + 1 + 1 + 20 + 8 + 8 + 1

test.group('Devnet transaction admission', (group) => {
  const devnet = useDevnet(group)

  test('a mainnet-version transaction is rejected as BadTransactionVersion', async ({ assert }) => {
    const tx = await transfer({ network: 'mainnet' })
    const response = await broadcast<Rejection>(devnet(), tx)

    assert.equal(response.status, 400)
    assert.equal(response.body.error, 'transaction rejected')
    assert.equal(response.body.reason, 'BadTransactionVersion')
    assert.equal(response.body.txid, tx.txid())
  })

  test('a transaction signed for another chain id is rejected as SignatureValidation', async ({
    assert,
  }) => {
    const tx = await transfer({ network: { ...STACKS_DEVNET, chainId: 0x80000001 } })
    const response = await broadcast<Rejection>(devnet(), tx)

    assert.equal(response.status, 400)
    assert.equal(response.body.reason, 'SignatureValidation')
    assert.match(String(response.body.reason_data.message), /chain ID 2147483649/)
    assert.equal(devnet().nonceOf(SENDER.address), 0n)
  })

  test('a transaction whose signature was tampered with is rejected as SignatureValidation', async ({
    assert,
  }) => {
    const tx = await transfer({})
    const bytes = tx.serializeBytes()
    bytes[SIGNATURE_OFFSET + 20] ^= 0xff
    const response = await broadcast<Rejection>(devnet(), bytes, 'octet-stream')

    assert.equal(response.status, 400)
    assert.equal(response.body.reason, 'SignatureValidation')
  })

  test('a nonce the account already used is rejected as BadNonce', async ({ assert }) => {
    assert.equal(await broadcastStatus(devnet(), await transfer({ nonce: 0n })), 200)
    await devnet().mine()

    const replay = await transfer({ nonce: 0n, amount: 5n })
    const response = await broadcast<Rejection>(devnet(), replay)

    assert.equal(response.status, 400)
    assert.equal(response.body.reason, 'BadNonce')
    assert.deepEqual(response.body.reason_data, {
      expected: 1,
      actual: 0,
      principal: SENDER.address,
      is_origin: true,
    })
  })

  test('a nonce more than 25 ahead of the next one is rejected as TooMuchChaining', async ({
    assert,
  }) => {
    const atLimit = await broadcast(devnet(), await transfer({ nonce: 25n }))
    assert.equal(atLimit.status, 200)

    const response = await broadcast<Rejection>(devnet(), await transfer({ nonce: 26n }))
    assert.equal(response.status, 400)
    assert.equal(response.body.reason, 'TooMuchChaining')
    assert.containsSubset(response.body.reason_data, {
      expected: 25,
      actual: 26,
      max_nonce: 25,
      actual_nonce: 26,
      principal: SENDER.address,
      is_origin: true,
    })
  })

  test('a second transaction with a pending nonce and no higher fee is rejected as ConflictingNonceInMempool', async ({
    assert,
  }) => {
    assert.equal(await broadcastStatus(devnet(), await transfer({ fee: 2_000n })), 200)

    const sameFee = await broadcast<Rejection>(
      devnet(),
      await transfer({ fee: 2_000n, amount: 7n })
    )
    const lowerFee = await broadcast<Rejection>(
      devnet(),
      await transfer({ fee: 1_500n, amount: 7n })
    )

    assert.equal(sameFee.status, 400)
    assert.equal(sameFee.body.reason, 'ConflictingNonceInMempool')
    assert.equal(lowerFee.body.reason, 'ConflictingNonceInMempool')
    // stacks-node sends this refusal without reason_data.
    assert.notProperty(sameFee.body, 'reason_data')
  })

  test('a fee under 1 µSTX per byte is rejected as FeeTooLow', async ({ assert }) => {
    const tx = await transfer({ fee: 100n })
    const length = tx.serializeBytes().length
    const response = await broadcast<Rejection>(devnet(), tx)

    assert.equal(response.status, 400)
    assert.equal(response.body.reason, 'FeeTooLow')
    assert.deepEqual(response.body.reason_data, { expected: length, actual: 100 })

    const exact = await broadcast(devnet(), await transfer({ fee: BigInt(length) }))
    assert.equal(exact.status, 200)
  })

  test('a sender without enough STX is rejected as NotEnoughFunds with hex amounts', async ({
    assert,
  }) => {
    const tx = await transfer({ senderKey: randomPrivateKey(), amount: 1_000n, fee: FEE })
    const response = await broadcast<Rejection>(devnet(), tx)

    assert.equal(response.status, 400)
    assert.equal(response.body.reason, 'NotEnoughFunds')
    assert.deepEqual(response.body.reason_data, {
      expected: `0x${(2_000).toString(16).padStart(32, '0')}`,
      actual: `0x${'0'.repeat(32)}`,
    })
  })

  test('what pending transactions already spend counts against the balance', async ({ assert }) => {
    const balance = devnet().balanceOf(SENDER.address)
    assert.equal(
      await broadcastStatus(devnet(), await transfer({ amount: 1_000n, nonce: 0n })),
      200
    )
    const spendable = balance - 1_000n - FEE

    const tooMuch = await transfer({ amount: spendable - FEE + 1n, nonce: 1n })
    const response = await broadcast<Rejection>(devnet(), tooMuch)
    assert.equal(response.body.reason, 'NotEnoughFunds')
    assert.deepEqual(response.body.reason_data, {
      expected: `0x${(spendable + 1n).toString(16).padStart(32, '0')}`,
      actual: `0x${spendable.toString(16).padStart(32, '0')}`,
    })

    const justEnough = await transfer({ amount: spendable - FEE, nonce: 1n })
    assert.equal(await broadcastStatus(devnet(), justEnough), 200)
  })

  test('a transfer to the sender itself is rejected as TransferRecipientCannotEqualSender', async ({
    assert,
  }) => {
    const response = await broadcast<Rejection>(
      devnet(),
      await transfer({ recipient: SENDER.address })
    )

    assert.equal(response.status, 400)
    assert.equal(response.body.reason, 'TransferRecipientCannotEqualSender')
    assert.deepEqual(response.body.reason_data, { recipient: SENDER.address })
  })

  test('a zero amount is rejected as TransferAmountMustBePositive', async ({ assert }) => {
    const response = await broadcast<Rejection>(devnet(), await transfer({ amount: 0n }))
    assert.equal(response.body.reason, 'TransferAmountMustBePositive')
  })

  test('a mainnet recipient is rejected as BadAddressVersionByte', async ({ assert }) => {
    const tx = await transfer({ recipient: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7' })
    const response = await broadcast<Rejection>(devnet(), tx)
    assert.equal(response.status, 400)
    assert.equal(response.body.reason, 'BadAddressVersionByte')
  })

  test('contract calls and sponsored transfers are refused as ServerFailureOther', async ({
    assert,
  }) => {
    const call = await makeContractCall({
      contractAddress: 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM',
      contractName: 'counter',
      functionName: 'increment',
      functionArgs: [Cl.uint(1)],
      senderKey: SENDER.privateKey,
      fee: FEE,
      nonce: 0n,
      network: 'devnet',
    })
    const sponsored = await makeSTXTokenTransfer({
      recipient: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
      amount: 1n,
      senderKey: SENDER.privateKey,
      fee: 0n,
      nonce: 0n,
      sponsored: true,
      network: 'devnet',
    })

    const callResponse = await broadcast<Rejection>(devnet(), call)
    const sponsoredResponse = await broadcast<Rejection>(devnet(), sponsored)

    assert.equal(callResponse.body.reason, 'ServerFailureOther')
    assert.match(String(callResponse.body.reason_data.message), /contract_call/)
    assert.equal(sponsoredResponse.body.reason, 'ServerFailureOther')
    assert.match(String(sponsoredResponse.body.reason_data.message), /sponsored/)
  })

  test('trailing bytes after a valid transaction are refused as undecodable, in text', async ({
    assert,
  }) => {
    const tx = await transfer({})
    const padded = new Uint8Array([...tx.serializeBytes(), 0x00])

    const raw = await broadcast<string>(devnet(), padded, 'octet-stream')
    const json = await broadcast<string>(devnet(), padded, 'json')

    for (const response of [raw, json]) {
      assert.equal(response.status, 400)
      assert.match(response.headers.get('content-type')!, /^text\/plain/)
      assert.match(response.body, /^Failed to deserialize posted transaction: .*trailing/)
    }
    assert.equal(devnet().nonceOf(SENDER.address), 0n)
  })

  test('garbage hex and truncated bytes are refused as stacks-node does, in text', async ({
    assert,
  }) => {
    const valid = await transfer({})
    const notHex = await fetch(`${devnet().url}/v2/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: 'zz-not-hex' }),
    })
    const undecodable = await broadcast<string>(devnet(), new Uint8Array([0xde, 0xad, 0xbe, 0xef]))
    const truncated = await broadcast<string>(
      devnet(),
      valid.serializeBytes().slice(0, 100),
      'octet-stream'
    )
    const empty = await broadcast<string>(devnet(), new Uint8Array(), 'octet-stream')

    assert.equal(notHex.status, 400)
    assert.equal(await notHex.text(), 'Failed to parse tx')
    for (const response of [undecodable, truncated, empty]) {
      assert.equal(response.status, 400)
      assert.match(response.headers.get('content-type')!, /^text\/plain/)
      assert.match(response.body, /^Failed to deserialize posted transaction: /)
    }
  })
})
