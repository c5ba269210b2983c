import { test } from '@japa/runner'
import { privateKeyToAddress } from '@stacks/transactions'
import { DEFAULT_ACCOUNT_BALANCE, DEVNET_ACCOUNTS, startDevnet } from '../src/index.js'
import { getJson } from './helpers.js'

test.group('Devnet accounts', () => {
  test('every pre-funded private key derives the address it is listed with', ({ assert }) => {
    assert.lengthOf(DEVNET_ACCOUNTS, 10)
    for (const account of DEVNET_ACCOUNTS) {
      assert.equal(
        privateKeyToAddress(account.privateKey, 'devnet'),
        account.address,
        account.label
      )
    }
    assert.equal(new Set(DEVNET_ACCOUNTS.map((account) => account.address)).size, 10)
  })

  test('each pre-funded account starts with 100,000,000 STX', async ({ assert, cleanup }) => {
    const devnet = await startDevnet({ port: 0, blockTimeMs: null })
    cleanup(() => devnet.stop())

    assert.equal(DEFAULT_ACCOUNT_BALANCE, 100_000_000_000_000n)
    for (const account of devnet.accounts) {
      assert.equal(devnet.balanceOf(account.address), DEFAULT_ACCOUNT_BALANCE)
      assert.equal(devnet.nonceOf(account.address), 0n)
    }

    const listed = await getJson<
      { label: string; address: string; private_key: string; balance: string }[]
    >(devnet, '/devnet/accounts')
    assert.equal(listed.status, 200)
    assert.deepEqual(listed.body[0], {
      label: 'deployer',
      address: 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM',
      private_key: '753b7cc01a1a2e86221266a154af739463fce51219d97e4f856cd7200c3bd2a601',
      balance: '100000000000000',
    })
  })

  test('extra addresses given in fund start with the requested balance', async ({
    assert,
    cleanup,
  }) => {
    const platform = 'ST3AM1A56AK2C1XAFJ4115ZSV26EB49BVQ10MGCS0'
    const stranger = 'ST000000000000000000002AMW42H'
    const devnet = await startDevnet({
      port: 0,
      blockTimeMs: null,
      fund: [
        { address: stranger, amount: 5_000_000n },
        { address: platform, amount: 1n },
      ],
    })
    cleanup(() => devnet.stop())

    assert.equal(devnet.balanceOf(stranger), 5_000_000n)
    assert.equal(devnet.balanceOf(platform), DEFAULT_ACCOUNT_BALANCE + 1n)
  })

  test('funding a mainnet or malformed address refuses to start', async ({ assert }) => {
    await assert.rejects(
      () =>
        startDevnet({
          port: 0,
          fund: [{ address: 'SP000000000000000000002Q6VF78', amount: 1n }],
        }),
      /not a testnet/
    )
    await assert.rejects(
      () => startDevnet({ port: 0, fund: [{ address: 'nope', amount: 1n }] }),
      /not a testnet/
    )
  })
})
