import type { ServerResponse } from 'node:http'
import { test } from '@japa/runner'
import {
  type HiroMempoolTransaction,
  type HiroMinedTransaction,
  type HiroTransactionStatus,
  hiroExamples,
  hiroMempoolExample,
  hiroMinedExample,
  hiroNoncesExample,
  stacksCoreExamples,
} from '@tollbooth/devnet/reference'
import { decideBroadcastOutcome } from '#chain/broadcast_outcome'
import { StacksClient } from '#chain/stacks_client'
import { stacksClientOptions } from '#tests/support/chain'
import { sendJson, startLocalSite, type LocalSite } from '#tests/support/local_site'

/**
 * The chain client against answers shaped as their authors publish them
 * (Hiro's API types and tests, stacks-core's RPC document examples: see
 * docs/devnet.md), not as the devnet renders them.
 */

const TXID = hiroExamples.mined.tx_id
const SENDER = hiroExamples.mined.sender_address

/** How the client reads each documented status: [confirmed, failed, dropped]. */
const READINGS: Record<HiroTransactionStatus, [boolean, boolean, boolean]> = {
  success: [true, false, false],
  abort_by_response: [false, true, false],
  abort_by_post_condition: [false, true, false],
  problematic_skipped: [false, true, false],
  pending: [false, false, false],
  dropped_replace_by_fee: [false, false, true],
  dropped_replace_across_fork: [false, false, true],
  dropped_too_expensive: [false, false, true],
  dropped_stale_garbage_collect: [false, false, true],
  dropped_problematic: [false, false, true],
}
const MINED: HiroMinedTransaction['tx_status'][] = [
  'success',
  'abort_by_response',
  'abort_by_post_condition',
  'problematic_skipped',
]

function example(status: HiroTransactionStatus) {
  return (MINED as string[]).includes(status)
    ? hiroMinedExample(status as HiroMinedTransaction['tx_status'])
    : hiroMempoolExample(status as HiroMempoolTransaction['tx_status'])
}

test.group('Chain client on answers shaped as the references publish them', (group) => {
  let site: LocalSite
  let answer: (path: string, response: ServerResponse) => void
  const client = () => new StacksClient(stacksClientOptions(`http://127.0.0.1:${site.port}`))

  group.setup(async () => {
    site = await startLocalSite((request, response) => answer(request.url ?? '', response))
    return () => site.close()
  })

  test('every documented transaction status is read as confirmed, failed or dropped', async ({
    assert,
  }) => {
    for (const [status, [confirmed, failed, dropped]] of Object.entries(READINGS)) {
      answer = (_path, response) => sendJson(response, example(status as HiroTransactionStatus))

      const read = await client().getTransaction(TXID)

      assert.deepInclude(read, { status, confirmed, failed, dropped }, status)
    }
  })

  test('tx/multiple: found entries in both shapes, and a not-found one', async ({ assert }) => {
    const missing = `0x${'cd'.repeat(32)}`
    const replaced = hiroExamples.replaced
    answer = (_path, response) =>
      sendJson(response, {
        [TXID]: { found: true, result: hiroExamples.mined },
        [replaced.replaced_by_tx_id]: { found: true, result: hiroExamples.pending },
        [missing]: { found: false, result: { tx_id: missing } },
      })

    const found = await client().getTransactions([TXID, replaced.replaced_by_tx_id, missing])

    assert.deepInclude(found.get(TXID.slice(2)), { confirmed: true, blockHeight: 3 })
    assert.deepInclude(found.get(replaced.replaced_by_tx_id.slice(2)), {
      status: 'pending',
      blockHeight: null,
    })
    assert.isNull(found.get(missing.slice(2)))
  })

  test('nonces, the account, the fee rate and the node info parse', async ({ assert }) => {
    answer = (path, response) => {
      if (path.endsWith('/nonces')) return sendJson(response, hiroNoncesExample)
      if (path.startsWith('/v2/accounts/'))
        return sendJson(response, stacksCoreExamples.accountData)
      if (path === '/v2/fees/transfer')
        return sendJson(response, stacksCoreExamples.transferFeeRate)
      sendJson(response, stacksCoreExamples.nodeInfo)
    }

    assert.deepEqual(await client().getNonces(SENDER), {
      possibleNextNonce: 4n,
      lastExecutedNonce: 0n,
      lastMempoolNonce: 3n,
    })
    assert.deepEqual(await client().getAccount(SENDER), { balance: 500_000n, nonce: 2867n })
    assert.equal(await client().getTransferFeeRate(), 3n)
    assert.deepEqual(await client().getInfo(), { networkId: 1, tipHeight: 1_832_097 })
  })

  test('a broadcast: the bare txid, the JSON refusal and the text refusal', async ({ assert }) => {
    const { acceptedTxid, transactionSubmissionError, undecodableTransaction } = stacksCoreExamples
    answer = (_path, response) => sendJson(response, acceptedTxid)
    assert.deepEqual(await client().broadcast(new Uint8Array([0])), {
      kind: 'accepted',
      txid: acceptedTxid,
    })

    answer = (_path, response) => sendJson(response, transactionSubmissionError, 400)
    assert.deepEqual(await client().broadcast(new Uint8Array([0])), {
      kind: 'rejected',
      code: 'bad_nonce',
      reason: 'BadNonce',
      reasonData: transactionSubmissionError.reason_data,
      txid: transactionSubmissionError.txid,
    })

    answer = (_path, response) => {
      response.writeHead(400, { 'content-type': 'text/plain' })
      response.end(undecodableTransaction)
    }
    assert.containsSubset(await client().broadcast(new Uint8Array([0])), {
      kind: 'rejected',
      code: 'invalid_transaction',
    })
  })
})

test.group('Deciding a broadcast answer the node documents', () => {
  test('a text/plain 400 (no JSON) is a definite refusal, not an unknown outcome', ({ assert }) => {
    assert.deepEqual(decideBroadcastOutcome(400, undefined), {
      kind: 'rejected',
      code: 'invalid_transaction',
      reason: 'Deserialization',
      reasonData: null,
    })
  })
})
