import { test } from '@japa/runner'
import { randomPrivateKey } from '@stacks/transactions'
import { addressOfPrivateKey, checkAddress } from '#chain/address'
import { NETWORKS } from '#chain/network'

const TESTNET_ADDRESS = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5'
const MAINNET_ADDRESS = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7'

test.group('Network presets', () => {
  test('give the CAIP-2 id, chain id and versions of each network', ({ assert }) => {
    assert.containsSubset(NETWORKS.mainnet, {
      caip2: 'stacks:1',
      chainId: 1,
      transactionVersion: 0,
    })
    assert.containsSubset(NETWORKS.testnet, {
      caip2: 'stacks:2147483648',
      chainId: 0x80000000,
      transactionVersion: 0x80,
      explorerChain: 'testnet',
    })
    assert.containsSubset(NETWORKS.devnet, {
      caip2: 'stacks:2147483648',
      chainId: 0x80000000,
      defaultApiUrl: 'http://127.0.0.1:3999',
      explorerChain: 'testnet',
    })
    assert.deepEqual(NETWORKS.mainnet.addressVersion, { singleSig: 22, multiSig: 20 })
    assert.deepEqual(NETWORKS.devnet.addressVersion, { singleSig: 26, multiSig: 21 })
  })
})

test.group('Address validation', () => {
  test('accepts an address of the network and refuses one of another network', ({ assert }) => {
    assert.deepEqual(checkAddress(TESTNET_ADDRESS, NETWORKS.devnet), {
      valid: true,
      address: TESTNET_ADDRESS,
      kind: 'single_sig',
    })
    assert.deepEqual(checkAddress(MAINNET_ADDRESS, NETWORKS.mainnet), {
      valid: true,
      address: MAINNET_ADDRESS,
      kind: 'single_sig',
    })
    assert.deepEqual(checkAddress(MAINNET_ADDRESS, NETWORKS.devnet), {
      valid: false,
      reason: 'wrong_network',
    })
    assert.deepEqual(checkAddress(TESTNET_ADDRESS, NETWORKS.mainnet), {
      valid: false,
      reason: 'wrong_network',
    })
  })

  test('refuses malformed values, bad checksums and contract principals', ({ assert }) => {
    const badChecksum = `${TESTNET_ADDRESS.slice(0, -1)}6`
    for (const value of ['', 'hello', 42, null, badChecksum, `${TESTNET_ADDRESS}0`]) {
      assert.deepEqual(
        checkAddress(value, NETWORKS.devnet),
        { valid: false, reason: 'malformed' },
        String(value)
      )
    }
    assert.deepEqual(checkAddress(`${TESTNET_ADDRESS}.my-contract`, NETWORKS.devnet), {
      valid: false,
      reason: 'contract_principal',
    })
  })

  test('derives the address of a private key on each network', ({ assert }) => {
    const key = randomPrivateKey()
    assert.match(addressOfPrivateKey(key, NETWORKS.mainnet), /^SP/)
    assert.match(addressOfPrivateKey(key, NETWORKS.devnet), /^ST/)
    assert.isTrue(checkAddress(addressOfPrivateKey(key, NETWORKS.testnet), NETWORKS.devnet).valid)
  })
})
