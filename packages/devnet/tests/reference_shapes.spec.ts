import { test } from '@japa/runner'
import {
  ACCEPTED_TXID,
  MINIMUM_TRANSFER_FEE_RATE,
  accountDataSpec,
  hiroExamples,
  hiroNoncesExample,
  jsonType,
  nodeInfoSpec,
  shapeProblems,
  transactionSubmissionErrorSpec,
} from '../reference/index.js'
import { RECIPIENT, SENDER, broadcast, transfer, useDevnet } from '../src/testing.js'
import { getJson, postJson } from './helpers.js'

/**
 * The devnet's answer on every route the chain client uses, held to the
 * published references (reference/): stacks-core's RPC document for /v2/*,
 * Hiro's API types for /extended/v1/* (also enforced by the type check).
 */

/** Fields of `example` the answer lacks or renders with another JSON type. */
function differencesFrom(example: Record<string, unknown>, answer: Record<string, unknown>) {
  return Object.entries(example).flatMap(([name, value]) => {
    if (!Object.hasOwn(answer, name)) return [`${name}: missing`]
    const [documented, given] = [jsonType(value), jsonType(answer[name])]
    const nullable = documented === 'null' || given === 'null'
    return documented === given || nullable ? [] : [`${name}: ${given}, reference ${documented}`]
  })
}

test.group('Devnet answers against the stacks-core RPC document', (group) => {
  const devnet = useDevnet(group)

  test('GET /v2/info has every documented field with its type', async ({ assert }) => {
    await devnet().mine()
    const response = await getJson(devnet(), '/v2/info')

    assert.equal(response.status, 200)
    assert.deepEqual(shapeProblems(nodeInfoSpec, response.body), [])
  })

  test('GET /v2/accounts has the documented fields and no other', async ({ assert }) => {
    const response = await getJson(devnet(), `/v2/accounts/${SENDER.address}?proof=0`)

    assert.equal(response.status, 200)
    assert.deepEqual(shapeProblems(accountDataSpec, response.body, { closed: true }), [])
    // Asked without proofs, a node leaves the proof fields out.
    assert.notProperty(response.body, 'balance_proof')
    assert.notProperty(response.body, 'nonce_proof')
  })

  test('GET /v2/fees/transfer is a JSON integer of at least 1 µSTX per byte', async ({
    assert,
  }) => {
    const response = await getJson<unknown>(devnet(), '/v2/fees/transfer')

    assert.equal(response.status, 200)
    assert.equal(jsonType(response.body), 'integer')
    assert.isAtLeast(response.body as number, MINIMUM_TRANSFER_FEE_RATE)
  })

  test('POST /v2/transactions answers a bare txid, and refusals as documented', async ({
    assert,
  }) => {
    const accepted = await broadcast<unknown>(devnet(), await transfer({ nonce: 0n }))
    assert.equal(accepted.status, 200)
    assert.match(String(accepted.body), ACCEPTED_TXID)
    await devnet().mine()

    const refusals = [
      await transfer({ nonce: 0n, amount: 5n }), // BadNonce
      await transfer({ nonce: 1n, fee: 10n }), // FeeTooLow
      await transfer({ nonce: 1n, amount: 10n ** 18n }), // NotEnoughFunds
      await transfer({ nonce: 40n }), // TooMuchChaining
    ]
    for (const tx of refusals) {
      const refused = await broadcast<Record<string, unknown>>(devnet(), tx)
      assert.equal(refused.status, 400)
      assert.deepEqual(shapeProblems(transactionSubmissionErrorSpec, refused.body), [])
      assert.equal(refused.body.txid, tx.txid())
    }

    const undecodable = await broadcast<unknown>(devnet(), new Uint8Array([1, 2, 3]))
    assert.equal(undecodable.status, 400)
    assert.match(undecodable.headers.get('content-type')!, /^text\/plain/)
  })

  test('an injected failure on a node route is text, on a Hiro route JSON {error}', async ({
    assert,
  }) => {
    devnet().faults.failNext(1, 500, '/v2/')
    devnet().faults.failNext(1, 503, '/extended/')

    const node = await fetch(`${devnet().url}/v2/info`)
    const hiro = await getJson(devnet(), `/extended/v1/address/${SENDER.address}/nonces`)

    assert.equal(node.status, 500)
    assert.match(node.headers.get('content-type')!, /^text\/plain/)
    await node.body?.cancel()
    assert.equal(hiro.status, 503)
    assert.equal(jsonType(hiro.body.error), 'string')
  })
})

test.group('Devnet answers against the Hiro API reference', (group) => {
  const devnet = useDevnet(group)

  test('a pending, a replaced and a mined transfer have every field Hiro sends', async ({
    assert,
  }) => {
    const first = await transfer({ nonce: 0n, fee: 1_000n })
    const replacement = await transfer({ nonce: 0n, fee: 2_000n })
    await broadcast(devnet(), first)
    const pending = await getJson(devnet(), `/extended/v1/tx/0x${first.txid()}`)
    await broadcast(devnet(), replacement)
    await devnet().mine()

    const replaced = await getJson(devnet(), `/extended/v1/tx/0x${first.txid()}`)
    const mined = await getJson(devnet(), `/extended/v1/tx/0x${replacement.txid()}`)

    assert.equal(pending.body.tx_status, 'pending')
    assert.deepEqual(differencesFrom(hiroExamples.pending, pending.body), [])
    assert.isNull(pending.body.replaced_by_tx_id)
    assert.equal(replaced.body.tx_status, 'dropped_replace_by_fee')
    assert.deepEqual(differencesFrom(hiroExamples.replaced, replaced.body), [])
    assert.equal(replaced.body.replaced_by_tx_id, `0x${replacement.txid()}`)
    assert.equal(mined.body.tx_status, 'success')
    assert.deepEqual(differencesFrom(hiroExamples.mined, mined.body), [])
    assert.isNull(mined.body.vm_error)
  })

  test('an aborted transfer and a dropped one (faults) are reference-shaped too', async ({
    assert,
  }) => {
    await postJson(devnet(), '/devnet/faults', { kind: 'report_dropped' })
    const dropped = await transfer({ nonce: 0n })
    await broadcast(devnet(), dropped)
    const droppedAnswer = await getJson<Record<string, { found: boolean; result: never }>>(
      devnet(),
      `/extended/v1/tx/multiple?tx_id=0x${dropped.txid()}`
    )
    const aborted = await transfer({ nonce: 1n })
    await broadcast(devnet(), aborted)
    devnet().faults.abort(aborted.txid())
    await devnet().mine()
    const abortedAnswer = await getJson(devnet(), `/extended/v1/tx/0x${aborted.txid()}`)

    const entry = droppedAnswer.body[`0x${dropped.txid()}`]
    assert.isTrue(entry.found)
    assert.deepEqual(differencesFrom(hiroExamples.pending, entry.result), [])
    assert.equal(abortedAnswer.body.tx_status, 'abort_by_response')
    assert.deepEqual(differencesFrom(hiroExamples.mined, abortedAnswer.body), [])
  })

  test('nonces and the STX balance have every field Hiro sends', async ({ assert }) => {
    const nonces = await getJson(devnet(), `/extended/v1/address/${SENDER.address}/nonces`)
    const balance = await getJson(devnet(), `/extended/v1/address/${RECIPIENT}/stx`)

    assert.deepEqual(differencesFrom(hiroNoncesExample, nonces.body), [])
    assert.equal(jsonType(balance.body.balance), 'string')
    assert.equal(jsonType(balance.body.locked), 'string')
  })
})
