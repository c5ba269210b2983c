import { test } from '@japa/runner'
import { explorerLink, explorerUrlFor } from '#chain/explorer'
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

  test("go to the devnet's own transaction page on the devnet, still naming testnet", ({
    assert,
  }) => {
    assert.equal(
      explorerLink({ explorerUrl: 'http://127.0.0.1:3999', network: NETWORKS.devnet }, TXID),
      `http://127.0.0.1:3999/txid/0x${TXID}?chain=testnet`
    )
  })

  test('a devnet whose EXPLORER_URL names the public explorer links to testnet, not mainnet', ({
    assert,
  }) => {
    const explorerUrl = explorerUrlFor(
      'devnet',
      'http://127.0.0.1:3999',
      'https://explorer.hiro.so'
    )

    assert.equal(
      explorerLink({ explorerUrl, network: NETWORKS.devnet }, TXID),
      `https://explorer.hiro.so/txid/0x${TXID}?chain=testnet`
    )
  })
})

test.group('Explorer URL (EXPLORER_URL and its default)', () => {
  test("defaults to the API's node on the devnet", ({ assert }) => {
    assert.equal(
      explorerUrlFor('devnet', 'http://127.0.0.1:4111', undefined),
      'http://127.0.0.1:4111'
    )
  })

  test('defaults to the public explorer on testnet and mainnet', ({ assert }) => {
    assert.equal(
      explorerUrlFor('testnet', 'https://api.testnet.hiro.so', undefined),
      'https://explorer.hiro.so'
    )
    assert.equal(
      explorerUrlFor('mainnet', 'https://api.hiro.so', undefined),
      'https://explorer.hiro.so'
    )
  })

  test('an explicit EXPLORER_URL wins', ({ assert }) => {
    assert.equal(
      explorerUrlFor('devnet', 'http://127.0.0.1:3999', 'https://explorer.example'),
      'https://explorer.example'
    )
    assert.equal(
      explorerUrlFor('mainnet', 'https://api.hiro.so', 'https://explorer.example'),
      'https://explorer.example'
    )
  })
})
