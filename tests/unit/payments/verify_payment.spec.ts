import { test } from '@japa/runner'
import { STACKS_TESTNET } from '@stacks/network'
import {
  Pc,
  TransactionSigner,
  createLPList,
  makeContractCall,
  makeSTXTokenTransfer,
  makeUnsignedSTXTokenTransfer,
  postConditionToWire,
  privateKeyToPublic,
  randomPrivateKey,
  uintCV,
  type StacksTransactionWire,
} from '@stacks/transactions'
import { NETWORKS } from '#chain/network'
import { StacksClient } from '#chain/stacks_client'
import {
  decodeAndCheckTransaction,
  verifyPayment,
  type PaymentRequirement,
  type VerificationResult,
} from '#payments/verify_payment'
import type { PaymentErrorCode } from '#payments/payment_errors'
import { DEVNET_ACCOUNTS } from '#chain/devnet/main'
import { FEE, RECIPIENT, SENDER, broadcast, transfer, useDevnet } from '#tests/support/devnet'

const PRICE = 5_000n
const requirement: PaymentRequirement = {
  amount: PRICE,
  payTo: RECIPIENT,
  network: NETWORKS.devnet,
}
/** Where the origin's signature sits in a serialized single-sig transaction. */
const SIGNATURE_OFFSET = 1 + 4 + 1 + 1 + 20 + 8 + 8 + 1

const hexOf = (tx: StacksTransactionWire) => tx.serialize()

function failureCode(result: VerificationResult): PaymentErrorCode | null {
  return result.ok ? null : result.failure.code
}

function refusedWith(hex: string): PaymentErrorCode | null {
  return failureCode(decodeAndCheckTransaction(hex, requirement))
}

test.group('Payment verification (pure checks)', () => {
  test('a signed transfer to payTo of the price is accepted with what it pays', async ({
    assert,
  }) => {
    const tx = await transfer({ amount: PRICE, memo: 'order 42', nonce: 3n })

    const result = decodeAndCheckTransaction(hexOf(tx), requirement)

    assert.isTrue(result.ok)
    if (!result.ok) return
    assert.deepInclude(result.payment, {
      txid: tx.txid(),
      payer: SENDER.address,
      amount: PRICE,
      fee: FEE,
      nonce: 3n,
      recipient: RECIPIENT,
      memo: 'order 42',
    })
    assert.match(result.payment.txid, /^[0-9a-f]{64}$/)
    assert.deepEqual(result.payment.bytes, tx.serializeBytes())
  })

  test('a 0x-prefixed hex transaction is accepted too', async ({ assert }) => {
    const tx = await transfer({ amount: PRICE })

    const result = decodeAndCheckTransaction(`0x${hexOf(tx)}`, requirement)

    assert.isTrue(result.ok)
  })

  test('text that is not hex is an invalid payload', ({ assert }) => {
    assert.equal(refusedWith('not a transaction'), 'invalid_payload')
    assert.equal(refusedWith(''), 'invalid_payload')
    assert.equal(refusedWith('abc'), 'invalid_payload')
  })

  test('hex that does not decode as a transaction is an invalid payload', async ({ assert }) => {
    const hex = hexOf(await transfer({ amount: PRICE }))

    assert.equal(refusedWith('deadbeef'), 'invalid_payload')
    assert.equal(refusedWith(hex.slice(0, hex.length - 20)), 'invalid_payload')
  })

  test('trailing bytes after a valid transaction make it an invalid payload', async ({
    assert,
  }) => {
    const hex = hexOf(await transfer({ amount: PRICE }))

    assert.equal(refusedWith(`${hex}00`), 'invalid_payload')
  })

  test('a mainnet transaction is refused on the devnet as the wrong network', async ({
    assert,
  }) => {
    const tx = await transfer({ amount: PRICE, network: 'mainnet' })

    assert.equal(refusedWith(hexOf(tx)), 'invalid_network')
  })

  test('a transaction signed for another chain id is refused as the wrong network', async ({
    assert,
  }) => {
    const tx = await transfer({
      amount: PRICE,
      network: { ...STACKS_TESTNET, chainId: 0x12345678 },
    })

    assert.equal(tx.chainId, 0x12345678)
    assert.equal(refusedWith(hexOf(tx)), 'invalid_network')
  })

  test('a sponsored transaction is refused as an unsupported authorization', async ({ assert }) => {
    const tx = await makeSTXTokenTransfer({
      senderKey: SENDER.privateKey,
      recipient: RECIPIENT,
      amount: PRICE,
      fee: 0n,
      nonce: 0n,
      sponsored: true,
      network: 'devnet',
    })

    assert.equal(refusedWith(hexOf(tx)), 'unsupported_authorization')
  })

  test('a fully signed multisig transaction is refused as an unsupported authorization', async ({
    assert,
  }) => {
    const keys = [DEVNET_ACCOUNTS[1].privateKey, DEVNET_ACCOUNTS[3].privateKey]
    const tx = await makeSTXTokenTransfer({
      numSignatures: 2,
      publicKeys: keys.map((key) => privateKeyToPublic(key)),
      signerKeys: keys,
      recipient: RECIPIENT,
      amount: PRICE,
      fee: FEE,
      nonce: 0n,
      network: 'devnet',
    })
    assert.doesNotThrow(() => tx.verifyOrigin())

    assert.equal(refusedWith(hexOf(tx)), 'unsupported_authorization')
  })

  test('a flipped byte inside the signature is refused as an invalid signature', async ({
    assert,
  }) => {
    const tx = await transfer({ amount: PRICE })
    const bytes = tx.serializeBytes()
    bytes[SIGNATURE_OFFSET + 20] ^= 0x01

    assert.equal(refusedWith(Buffer.from(bytes).toString('hex')), 'invalid_signature')
  })

  test('a transfer amount changed after signing is refused as an invalid signature', async ({
    assert,
  }) => {
    const tx = await transfer({ amount: PRICE })
    const hex = hexOf(tx)
    const amountHex = PRICE.toString(16).padStart(16, '0')
    const raised = hex.replace(amountHex, (PRICE * 100n).toString(16).padStart(16, '0'))
    assert.notEqual(raised, hex)

    assert.equal(refusedWith(raised), 'invalid_signature')
  })

  test('a contract call is refused as the wrong transaction type', async ({ assert }) => {
    const tx = await makeContractCall({
      senderKey: SENDER.privateKey,
      contractAddress: RECIPIENT,
      contractName: 'shop',
      functionName: 'pay',
      functionArgs: [uintCV(PRICE)],
      validateWithAbi: false,
      fee: FEE,
      nonce: 0n,
      network: 'devnet',
    })

    assert.equal(refusedWith(hexOf(tx)), 'invalid_transaction_type')
  })

  test('a transfer to another address is refused as the wrong recipient', async ({ assert }) => {
    const tx = await transfer({ amount: PRICE, recipient: DEVNET_ACCOUNTS[3].address })

    assert.equal(refusedWith(hexOf(tx)), 'invalid_recipient')
  })

  test('a transfer to a contract principal is refused as the wrong recipient', async ({
    assert,
  }) => {
    const tx = await transfer({ amount: PRICE, recipient: `${RECIPIENT}.vault` })

    assert.equal(refusedWith(hexOf(tx)), 'invalid_recipient')
  })

  test('paying less than the price is refused as an insufficient amount', async ({ assert }) => {
    const tx = await transfer({ amount: PRICE - 1n })

    assert.equal(refusedWith(hexOf(tx)), 'insufficient_amount')
  })

  test('paying more than the price is accepted with the amount actually paid', async ({
    assert,
  }) => {
    const tx = await transfer({ amount: PRICE * 3n })

    const result = decodeAndCheckTransaction(hexOf(tx), requirement)

    assert.isTrue(result.ok)
    assert.equal(result.ok && result.payment.amount, PRICE * 3n)
  })

  test('a transfer carrying a post-condition is refused', async ({ assert }) => {
    const tx = await makeUnsignedSTXTokenTransfer({
      publicKey: privateKeyToPublic(SENDER.privateKey),
      recipient: RECIPIENT,
      amount: PRICE,
      fee: FEE,
      nonce: 0n,
      network: 'devnet',
    })
    const condition = Pc.principal(SENDER.address).willSendLte(PRICE).ustx()
    tx.postConditions = createLPList([postConditionToWire(condition)])
    new TransactionSigner(tx).signOrigin(SENDER.privateKey)
    assert.doesNotThrow(() => tx.verifyOrigin())

    assert.equal(refusedWith(hexOf(tx)), 'post_conditions_not_allowed')
  })

  test('a fee above the cap is refused, by default above 0.1 STX', async ({ assert }) => {
    const atCap = await transfer({ amount: PRICE, fee: 100_000n })
    const aboveCap = await transfer({ amount: PRICE, fee: 100_001n })

    assert.isTrue(decodeAndCheckTransaction(hexOf(atCap), requirement).ok)
    assert.equal(refusedWith(hexOf(aboveCap)), 'fee_too_high')
    assert.equal(
      failureCode(decodeAndCheckTransaction(hexOf(atCap), requirement, { maxFee: 50_000n })),
      'fee_too_high'
    )
  })
})

test.group('Payment verification against the devnet', (group) => {
  const devnet = useDevnet(group)
  const chain = () => new StacksClient({ baseUrl: devnet().url, timeoutMs: 1000 })

  test('a funded payer with a fresh nonce is verified', async ({ assert }) => {
    const tx = await transfer({ amount: PRICE })

    const result = await verifyPayment(hexOf(tx), requirement, chain())

    assert.isTrue(result.ok)
    assert.equal(result.ok && result.payment.txid, tx.txid())
    assert.equal(result.ok && result.payment.payer, SENDER.address)
  })

  test('a payer without the amount plus fee is refused for insufficient funds', async ({
    assert,
  }) => {
    const tx = await transfer({ senderKey: randomPrivateKey(), amount: PRICE })

    const result = await verifyPayment(hexOf(tx), requirement, chain())

    assert.equal(failureCode(result), 'insufficient_funds')
  })

  test('a nonce already used on chain is refused as a bad nonce', async ({ assert }) => {
    const first = await transfer({ amount: PRICE, nonce: 0n })
    const accepted = await broadcast(devnet(), first)
    assert.equal(accepted.status, 200)
    await devnet().mine()
    const reused = await transfer({ amount: PRICE * 2n, nonce: 0n })

    const result = await verifyPayment(hexOf(reused), requirement, chain())

    assert.equal(failureCode(result), 'bad_nonce')
    const next = await transfer({ amount: PRICE, nonce: 1n })
    const fresh = await verifyPayment(hexOf(next), requirement, chain())
    assert.isTrue(fresh.ok)
  })

  test('a pure check failure is answered without asking the chain', async ({ assert }) => {
    let lookups = 0
    const counting = {
      getAccount: async (address: string) => {
        lookups++
        return chain().getAccount(address)
      },
    }
    const tx = await transfer({ amount: PRICE - 1n })

    const result = await verifyPayment(hexOf(tx), requirement, counting)

    assert.equal(failureCode(result), 'insufficient_amount')
    assert.equal(lookups, 0)
  })
})
