import { test } from '@japa/runner'
import { explorerLink } from '#chain/explorer'
import { NETWORKS } from '#chain/network'

const TXID = 'ab'.repeat(32)

test.group('Explorer links', () => {
  test('name the chain on the public explorer', ({ assert }) => {
    const hiro = 'https://explorer.hiro.so/'

    assert.equal(
      explorerLink({ explorerUrl: hiro, network: NETWORKS.mainnet }, TXID),
      `https://explorer.hiro.so/txid/0x${TXID}?chain=mainnet`
    )
    assert.equal(
      explorerLink({ explorerUrl: hiro, network: NETWORKS.testnet }, `0x${TXID}`),
      `https://explorer.hiro.so/txid/0x${TXID}?chain=testnet`
    )
  })

  test("go to the devnet's own transaction page on the devnet", ({ assert }) => {
    assert.equal(
      explorerLink({ explorerUrl: 'http://127.0.0.1:3999', network: NETWORKS.devnet }, TXID),
      `http://127.0.0.1:3999/txid/0x${TXID}`
    )
  })
})
