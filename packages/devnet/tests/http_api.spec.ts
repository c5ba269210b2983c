import { test } from '@japa/runner'
import { serializePayloadBytes } from '@stacks/transactions'
import { FEE, RECIPIENT, SENDER, broadcast, transfer, useDevnet } from '../src/testing.js'
import { getJson, httpStatus, postJson } from './helpers.js'

const UNKNOWN_TXID = 'ab'.repeat(32)

test.group('Devnet HTTP API shapes', (group) => {
  const devnet = useDevnet(group)

  test('/extended/v1/tx/multiple reports found and missing transactions keyed by tx id', async ({
    assert,
  }) => {
    const tx = await transfer({})
    await broadcast(devnet(), tx)

    const response = await getJson<
      Record<string, { found: boolean; result: Record<string, unknown> }>
    >(devnet(), `/extended/v1/tx/multiple?tx_id=0x${tx.txid()}&tx_id=${UNKNOWN_TXID}`)
    assert.equal(response.status, 200)
    assert.deepEqual(
      Object.keys(response.body).sort(),
      [`0x${tx.txid()}`, `0x${UNKNOWN_TXID}`].sort()
    )
    assert.isTrue(response.body[`0x${tx.txid()}`].found)
    assert.equal(response.body[`0x${tx.txid()}`].result.tx_status, 'pending')
    assert.deepEqual(response.body[`0x${UNKNOWN_TXID}`], {
      found: false,
      result: { tx_id: `0x${UNKNOWN_TXID}` },
    })
  })

  test('an unknown transaction is a 404 and a malformed id a 400', async ({ assert }) => {
    const unknown = await getJson(devnet(), `/extended/v1/tx/${UNKNOWN_TXID}`)
    assert.equal(unknown.status, 404)
    assert.deepEqual(unknown.body, {
      error: 'could not find transaction by ID',
      tx_id: `0x${UNKNOWN_TXID}`,
    })

    const malformed = await getJson(devnet(), '/extended/v1/tx/0x1234')
    assert.equal(malformed.status, 400)
  })

  test('nonces report executed, pending and missing nonces', async ({ assert }) => {
    await broadcast(devnet(), await transfer({ nonce: 0n }))
    await devnet().mine()
    await broadcast(devnet(), await transfer({ nonce: 1n }))
    await broadcast(devnet(), await transfer({ nonce: 3n }))

    const response = await getJson(devnet(), `/extended/v1/address/${SENDER.address}/nonces`)
    assert.equal(response.status, 200)
    assert.deepEqual(response.body, {
      last_mempool_tx_nonce: 3,
      last_executed_tx_nonce: 0,
      possible_next_nonce: 4,
      detected_missing_nonces: [2],
      detected_mempool_nonces: [3, 1],
    })

    const fresh = await getJson(devnet(), `/extended/v1/address/${RECIPIENT}/nonces`)
    assert.deepEqual(fresh.body, {
      last_mempool_tx_nonce: null,
      last_executed_tx_nonce: null,
      possible_next_nonce: 0,
      detected_missing_nonces: [],
      detected_mempool_nonces: [],
    })
  })

  test('the STX balance endpoint reports decimal strings and totals', async ({ assert }) => {
    await broadcast(devnet(), await transfer({ amount: 700n }))
    await devnet().mine()

    const sender = await getJson(devnet(), `/extended/v1/address/${SENDER.address}/stx`)
    const recipient = await getJson(devnet(), `/extended/v1/address/${RECIPIENT}/stx`)

    assert.equal(sender.status, 200)
    assert.containsSubset(sender.body, {
      balance: String(100_000_000_000_000n - 700n - FEE),
      total_sent: '700',
      total_received: '0',
      total_fees_sent: String(FEE),
      total_miner_rewards_received: '0',
      lock_tx_id: '',
      locked: '0',
      lock_height: 0,
      burnchain_lock_height: 0,
      burnchain_unlock_height: 0,
    })
    assert.containsSubset(recipient.body, { balance: '100000000000700', total_received: '700' })
  })

  test('/v2/accounts reports the balance as a hex u128 and the next nonce, without proofs', async ({
    assert,
  }) => {
    const response = await getJson(devnet(), `/v2/accounts/${SENDER.address}?proof=0`)
    assert.equal(response.status, 200)
    assert.deepEqual(response.body, {
      balance: `0x${100_000_000_000_000n.toString(16).padStart(32, '0')}`,
      locked: `0x${'0'.repeat(32)}`,
      unlock_height: 0,
      nonce: 0,
    })
  })

  test('/v2/info describes a testnet-versioned chain and its tip', async ({ assert }) => {
    await devnet().mine()
    const response = await getJson(devnet(), '/v2/info')

    assert.equal(response.status, 200)
    assert.containsSubset(response.body, {
      server_version: 'tollbooth-devnet',
      network_id: 2147483648,
      stacks_tip_height: 1,
      burn_block_height: 1,
      unanchored_tip: null,
    })
    assert.properties(response.body, [
      'peer_version',
      'pox_consensus',
      'stable_burn_block_height',
      'parent_network_id',
      'stacks_tip',
      'stacks_tip_consensus_hash',
      'genesis_chainstate_hash',
    ])
    assert.match(String(response.body.stacks_tip), /^[0-9a-f]{64}$/)
  })

  test('fee endpoints quote at least 1 µSTX per byte', async ({ assert }) => {
    const rate = await fetch(`${devnet().url}/v2/fees/transfer`)
    assert.equal(await rate.text(), '1')

    const tx = await transfer({})
    const payload = Buffer.from(serializePayloadBytes(tx.payload)).toString('hex')
    const length = tx.serializeBytes().length
    const withLength = await postJson<{ estimations: { fee: number; fee_rate: number }[] }>(
      devnet(),
      '/v2/fees/transaction',
      { transaction_payload: payload, estimated_len: length }
    )
    const withoutLength = await postJson<{ estimations: { fee: number; fee_rate: number }[] }>(
      devnet(),
      '/v2/fees/transaction',
      { transaction_payload: `0x${payload}` }
    )

    assert.equal(withLength.status, 200)
    assert.properties(withLength.body, [
      'estimated_cost',
      'estimated_cost_scalar',
      'cost_scalar_change_by_byte',
    ])
    assert.lengthOf(withLength.body.estimations, 3)
    for (const estimation of [...withLength.body.estimations, ...withoutLength.body.estimations]) {
      assert.isAtLeast(estimation.fee, length)
      assert.isAtLeast(estimation.fee_rate, 1)
    }

    const bad = await postJson(devnet(), '/v2/fees/transaction', { transaction_payload: 'zz' })
    assert.equal(bad.status, 400)
  })

  test('malformed addresses, unknown paths and wrong methods get JSON errors', async ({
    assert,
  }) => {
    const badAddress = await getJson(devnet(), '/extended/v1/address/not-an-address/stx')
    const mainnet = await getJson(devnet(), '/v2/accounts/SP000000000000000000002Q6VF78')
    const badEscape = await getJson(devnet(), '/v2/accounts/%E0%A4%A')
    const unknown = await getJson(devnet(), '/v2/nothing-here')
    const wrongMethod = await getJson(devnet(), '/v2/transactions')

    assert.equal(badAddress.status, 400)
    assert.equal(mainnet.status, 400)
    assert.equal(badEscape.status, 400)
    assert.equal(unknown.status, 404)
    assert.equal(wrongMethod.status, 405)

    const contract = await getJson(
      devnet(),
      `/extended/v1/address/${SENDER.address}.my-contract/stx`
    )
    assert.equal(contract.status, 200)
  })

  test('invalid JSON, unknown content types and oversized bodies are refused', async ({
    assert,
  }) => {
    const invalidJson = await postJson(devnet(), '/v2/transactions', '{"tx": ')
    const missingTx = await postJson(devnet(), '/v2/transactions', { hex: 'abcd' })
    const text = await fetch(`${devnet().url}/v2/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'abcd',
    })
    const huge = await fetch(`${devnet().url}/v2/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(1024 * 1024 + 1),
    })

    assert.equal(invalidJson.status, 400)
    assert.equal(missingTx.status, 400)
    assert.equal(text.status, 415)
    assert.equal(huge.status, 413)
    assert.equal(await httpStatus(devnet(), '/v2/info'), 200)
  })
})
