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
  uintCV,
  type StacksTransactionWire,
} from '@stacks/transactions'
import { NETWORKS } from '#chain/network'
import {
  checkPayerAccount,
  decodeAndCheckTransaction,
  type PaymentRequirement,
  type VerificationResult,
} from '#payments/verify_payment'
import type { PaymentRefusal } from '#payments/payment_refusal'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import { FEE, RECIPIENT, SENDER, transfer } from '#tests/support/devnet'

const PRICE = 5_000n
const requirement: PaymentRequirement = {
  amount: PRICE,
  payTo: RECIPIENT,
  network: NETWORKS.devnet,
}
/** Where the origin's signature sits in a serialized single-sig transaction. */
const SIGNATURE_OFFSET = 1 + 4 + 1 + 1 + 20 + 8 + 8 + 1

const hexOf = (tx: StacksTransactionWire) => tx.serialize()

function failureCode(result: VerificationResult): PaymentRefusal['code'] | null {
  return result.ok ? null : result.refusal.code
}

function refusedWith(hex: string): PaymentRefusal['code'] | null {
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

  test("a fee below the node's minimum of 1 µSTX per byte is refused as too low", async ({
    assert,
  }) => {
    const free = await transfer({ amount: PRICE, fee: 0n })
    const bytes = BigInt(free.serializeBytes().length)
    const atMinimum = await transfer({ amount: PRICE, fee: bytes })
    const belowMinimum = await transfer({ amount: PRICE, fee: bytes - 1n })

    assert.equal(refusedWith(hexOf(free)), 'fee_too_low')
    assert.equal(refusedWith(hexOf(belowMinimum)), 'fee_too_low')
    assert.isTrue(decodeAndCheckTransaction(hexOf(atMinimum), requirement).ok)
  })

  test('an amount or a nonce of 2^63 or more is refused, not stored', async ({ assert }) => {
    const huge = await transfer({ amount: 2n ** 63n })
    const largest = await transfer({ amount: 2n ** 63n - 1n })
    const farNonce = await transfer({ amount: PRICE, nonce: 2n ** 63n })

    assert.equal(refusedWith(hexOf(huge)), 'invalid_amount')
    assert.isTrue(decodeAndCheckTransaction(hexOf(largest), requirement).ok)
    assert.equal(refusedWith(hexOf(farNonce)), 'bad_nonce')
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

test.group('The payer account check', () => {
  const account = (balance: bigint, nonce: bigint) => ({ balance, nonce })
  const inFlight = (nonce: bigint | null, amount = PRICE) => ({ nonce, amount, fee: FEE })

  async function payment(nonce: bigint, amount = PRICE) {
    const checked = decodeAndCheckTransaction(hexOf(await transfer({ amount, nonce })), requirement)
    if (!checked.ok) throw new Error(checked.refusal.message)
    return checked.payment
  }

  test('a funded payer paying with its next nonce passes', async ({ assert }) => {
    const verdict = checkPayerAccount(await payment(4n), account(PRICE + FEE, 4n), [])

    assert.isTrue(verdict.ok)
  })

  test('a balance below amount plus fee is refused for insufficient funds', async ({ assert }) => {
    const verdict = checkPayerAccount(await payment(0n), account(PRICE + FEE - 1n, 0n), [])

    assert.equal(failureCode(verdict), 'insufficient_funds')
  })

  test('a nonce already used on chain is a bad nonce', async ({ assert }) => {
    const verdict = checkPayerAccount(await payment(2n), account(10n ** 9n, 3n), [])

    assert.equal(failureCode(verdict), 'bad_nonce')
  })

  test('a nonce ahead of the next one is refused unless payments in flight fill the gap', async ({
    assert,
  }) => {
    const rich = account(10n ** 9n, 5n)

    assert.equal(failureCode(checkPayerAccount(await payment(6n), rich, [])), 'bad_nonce')
    assert.equal(failureCode(checkPayerAccount(await payment(30n), rich, [])), 'bad_nonce')
    const twoSettling = [inFlight(5n), inFlight(6n)]
    assert.isTrue(checkPayerAccount(await payment(7n), rich, twoSettling).ok)
    assert.equal(failureCode(checkPayerAccount(await payment(8n), rich, twoSettling)), 'bad_nonce')
  })

  test('the nonce of another payment in flight is a conflicting nonce', async ({ assert }) => {
    const verdict = checkPayerAccount(await payment(5n), account(10n ** 9n, 5n), [inFlight(5n)])

    assert.equal(failureCode(verdict), 'conflicting_nonce')
  })

  test('the balance must cover the payments still settling as well', async ({ assert }) => {
    const each = PRICE + FEE
    const settling = [inFlight(0n), inFlight(1n)]

    assert.isTrue(checkPayerAccount(await payment(2n), account(3n * each, 0n), settling).ok)
    assert.equal(
      failureCode(checkPayerAccount(await payment(2n), account(3n * each - 1n, 0n), settling)),
      'insufficient_funds'
    )
  })

  test("payments in flight already mined (nonce below the account's) no longer count", async ({
    assert,
  }) => {
    const mined = [inFlight(0n), inFlight(1n)]

    const verdict = checkPayerAccount(await payment(2n), account(PRICE + FEE, 2n), mined)

    assert.isTrue(verdict.ok)
  })
})
