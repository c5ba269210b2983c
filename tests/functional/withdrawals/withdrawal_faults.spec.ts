import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { makeSTXTokenTransfer } from '@stacks/transactions'
import { PlatformWallet } from '#chain/platform_wallet'
import { StacksClient } from '#chain/stacks_client'
import { stacksClientOptions } from '#tests/support/chain'
import { broadcast } from '#tests/support/devnet'
import { WithdrawalDispatcher } from '#withdrawals/withdrawal_dispatcher'
import WithdrawalsConfirm from '../../../commands/withdrawals_confirm.js'
import { WithdrawalLifecycle } from '#withdrawals/withdrawal_lifecycle'
import {
  pendingRevenueOf,
  providerWithRevenue,
  useWithdrawalStack,
} from '#tests/support/withdrawals'

const STX = 1_000_000n

/** The node misbehaves, a crash interrupts: every withdrawal still ends paid once or restored. */
test.group('Withdrawals against a faulty node', (group) => {
  const stack = useWithdrawalStack(group, { blockTimeMs: null })

  async function withdraw(client: ApiClient, amount = 1_000_000) {
    const seller = await providerWithRevenue(client, 50n * STX)
    const response = await client
      .post(`/providers/id/${seller.providerId}/withdraw`)
      .bearerToken(seller.owner.token)
      .json({
        amount_microstx: amount,
        destination_address: seller.withdrawalWallet,
        idempotency_key: randomUUID(),
      })
    return { ...seller, response, withdrawal: response.body().withdrawal }
  }

  test('two 429s then an answer: broadcast', async ({ client }) => {
    stack.devnet.faults.failNext(2, 429, '/v2/transactions', { retryAfterSeconds: null })

    const { response } = await withdraw(client)

    response.assertStatus(201)
    response.assertBodyContains({ withdrawal: { status: 'broadcast' } })
  })

  test('rate-limited after every retry: failed and restored in the same request; the nonce is reused', async ({
    client,
    assert,
  }) => {
    stack.devnet.faults.failNext(3, 429, '/v2/transactions', { retryAfterSeconds: null })

    const first = await withdraw(client)
    const second = await withdraw(client)

    assert.containsSubset(first.withdrawal, { status: 'failed', nonce: 0 })
    assert.equal(await pendingRevenueOf(first.providerId), 50n * STX)
    assert.containsSubset(second.withdrawal, { status: 'broadcast', nonce: 0 })
  })

  test('a 5xx leaves the outcome unknown: pending, not restored; the job sends the same bytes once the node answers', async ({
    client,
    assert,
  }) => {
    stack.devnet.faults.failNext(3, 503, '/v2/transactions')

    const { withdrawal, providerId, withdrawalWallet } = await withdraw(client)
    await stack.confirm()
    await stack.confirm()

    assert.equal(withdrawal.status, 'pending')
    assert.isNotNull(withdrawal.tx_hash)
    const stillPending = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(stillPending.status, 'pending')
    assert.equal(await pendingRevenueOf(providerId), 49n * STX, 'never restored blindly')

    await stack.confirm()
    await stack.devnet.mine()
    await stack.confirm()

    const row = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(row.status, 'confirmed')
    assert.equal(`0x${row.txid}`, withdrawal.tx_hash, 'the same bytes')
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 1n * STX)
  })

  test('a broadcast that times out, after which the transaction appears on chain: confirmed once, never a second transfer', async ({
    client,
    assert,
  }) => {
    // The node holds the request until the connection drops (the devnet's hangMs, 500 ms here).
    stack.devnet.faults.timeoutNext(1, '/v2/transactions')
    const { withdrawal, withdrawalWallet } = await withdraw(client)
    assert.containsSubset(withdrawal, { status: 'pending' })
    const row = await db.from('withdrawals').where('id', withdrawal.id).first()
    await broadcast(stack.devnet, new Uint8Array(row.raw_tx))
    await stack.devnet.mine()

    await stack.confirm()
    await stack.confirm()

    const settled = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(settled.status, 'confirmed')
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 1n * STX)
  })

  test('aborted on chain: failed, pending revenue restored, the platform pays the fee', async ({
    client,
    assert,
  }) => {
    const { withdrawal, providerId, withdrawalWallet } = await withdraw(client)
    stack.devnet.faults.abort(withdrawal.tx_hash)
    await stack.devnet.mine()

    const summary = await stack.confirm()

    assert.equal(summary.failed, 1)
    const row = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(row.status, 'failed')
    assert.equal(await pendingRevenueOf(providerId), 50n * STX)
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 0n)
    const fees = await db
      .from('ledger_transactions')
      .where({ kind: 'withdrawal_fee', reference: withdrawal.id })
      .count('* as count')
    assert.equal(Number(fees[0].count), 1)
  })

  test('a nonce the node says is used is re-synced and the withdrawal signed again', async ({
    client,
    assert,
  }) => {
    const wallet = await app.container.make(PlatformWallet)
    const elsewhere = await makeSTXTokenTransfer({
      recipient: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
      amount: 1n,
      fee: 1_000n,
      nonce: 0n,
      senderKey: wallet.privateKey.release(),
      network: 'devnet',
    })
    // The counter starts at 0; then someone else uses the platform key's nonce 0.
    await db.table('platform_nonces').insert({ address: wallet.address, next_nonce: 0 })
    await broadcast(stack.devnet, elsewhere)
    await stack.devnet.mine()

    const { withdrawal, response } = await withdraw(client)

    assert.equal(response.status(), 201, response.text())
    assert.containsSubset(withdrawal, { status: 'broadcast' })
    assert.equal(withdrawal.nonce, 1)
  })

  test('forty withdrawals at once, more than the chaining limit: the rest wait and all end confirmed', async ({
    client,
    assert,
  }) => {
    const seller = await providerWithRevenue(client, 40n * STX)
    const responses = await Promise.all(
      Array.from({ length: 40 }, () =>
        client
          .post(`/providers/id/${seller.providerId}/withdraw`)
          .bearerToken(seller.owner.token)
          .json({
            amount_microstx: 1_000_000,
            destination_address: seller.withdrawalWallet,
            idempotency_key: randomUUID(),
          })
      )
    )
    assert.deepEqual([...new Set(responses.map((response) => response.status()))], [201])
    const signed = await db.from('withdrawals').whereNotNull('nonce').count('* as count')
    assert.equal(Number(signed[0].count), 25, 'at most 25 chained transactions in flight')

    for (let round = 0; round < 3; round++) {
      await stack.devnet.mine()
      await stack.confirm()
    }

    const rows = await db.from('withdrawals').select('status', 'nonce').orderBy('nonce')
    assert.deepEqual([...new Set(rows.map((row) => row.status))], ['confirmed'])
    assert.deepEqual(
      rows.map((row) => Number(row.nonce)),
      Array.from({ length: 40 }, (_, nonce) => nonce)
    )
    assert.equal(stack.devnet.balanceOf(seller.withdrawalWallet), 40n * STX)
  })

  test('a node that does not answer at all: the withdrawal is debited and queued, and sent once it answers', async ({
    client,
    assert,
  }) => {
    stack.devnet.faults.failNext(1, 503, '/v2/fees/transfer')

    const { response, withdrawal, withdrawalWallet } = await withdraw(client)

    response.assertStatus(201)
    assert.containsSubset(withdrawal, { status: 'pending', tx_hash: null })
    await stack.confirm()
    await stack.devnet.mine()
    await stack.confirm()
    const row = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(row.status, 'confirmed')
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 1n * STX)
  })

  test('a process stopping between the commit and the broadcast: the job sends the committed bytes', async ({
    client,
    assert,
  }) => {
    // Fault injection: the process stops right after the signed bytes are committed.
    class StoppingDispatcher extends WithdrawalDispatcher {
      async send(): Promise<never> {
        throw new Error('the process stopped')
      }
    }
    app.container.swap(WithdrawalDispatcher, (resolver) => resolver.make(StoppingDispatcher))
    let withdrawal: Record<string, any>
    let withdrawalWallet: string
    try {
      ;({ withdrawal, withdrawalWallet } = await withdraw(client))
    } finally {
      app.container.restore(WithdrawalDispatcher)
    }

    assert.containsSubset(withdrawal, { status: 'pending' })
    assert.isNotNull(withdrawal.tx_hash, 'signed and committed')
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 0n)

    await stack.confirm()
    await stack.devnet.mine()
    await stack.confirm()

    const row = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(row.status, 'confirmed')
    assert.equal(`0x${row.txid}`, withdrawal.tx_hash)
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 1n * STX)
  })

  /** Runs the confirm job with `client` as its node client. */
  /** `work` with the app talking to the node through `client`. */
  async function throughClient<T>(client: StacksClient, work: () => Promise<T>) {
    const real = await app.container.make(StacksClient)
    app.container.swap(StacksClient, () => client)
    try {
      return await work()
    } finally {
      app.container.swap(StacksClient, () => real)
    }
  }

  function confirmThrough(client: StacksClient) {
    return throughClient(client, () => stack.confirm())
  }

  test('a transaction mined while the job looks it up is confirmed, never failed and restored', async ({
    client,
    assert,
  }) => {
    stack.devnet.faults.failNext(1, 503, '/v2/transactions')
    const { withdrawal, providerId, withdrawalWallet } = await withdraw(client)
    const row = await db.from('withdrawals').where('id', withdrawal.id).first()
    // Right after the job's status look-up, the same bytes reach the node and are mined
    // (a dispatcher finishing its send, a request delivered late).
    const devnet = stack.devnet
    class LateDelivery extends StacksClient {
      async getTransactions(txids: string[]) {
        const answer = await super.getTransactions(txids)
        await broadcast(devnet, new Uint8Array(row.raw_tx))
        await devnet.mine()
        return answer
      }
    }

    await confirmThrough(new LateDelivery(stacksClientOptions(devnet.url)))
    await stack.confirm()

    const settled = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(settled.status, 'confirmed')
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 1n * STX)
    assert.equal(await pendingRevenueOf(providerId), 49n * STX, 'paid once, never restored')
  })

  test('an abort the batch look-up missed but the second look-up sees is failed with its fee paid', async ({
    client,
    assert,
  }) => {
    // Found in review: the second look-up's abort was failed as "nonce used", its fee never posted.
    const { withdrawal, providerId } = await withdraw(client)
    stack.devnet.faults.abort(withdrawal.tx_hash)
    await stack.devnet.mine()
    class LaggingIndex extends StacksClient {
      async getTransactions() {
        return new Map()
      }
    }

    const summary = await confirmThrough(new LaggingIndex(stacksClientOptions(stack.devnet.url)))

    assert.equal(summary.failed, 1)
    const settled = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(settled.status, 'failed')
    assert.match(settled.failure_reason, /^aborted on chain/)
    assert.equal(await pendingRevenueOf(providerId), 50n * STX)
    const fees = await db
      .from('ledger_transactions')
      .where({ kind: 'withdrawal_fee', reference: withdrawal.id })
      .count('* as count')
    assert.equal(Number(fees[0].count), 1)
  })

  test('a withdrawal the job cannot settle now is left for the next run and does not hold up the others', async ({
    client,
    assert,
    cleanup,
  }) => {
    const first = await withdraw(client)
    const second = await withdraw(client)
    await stack.devnet.mine()
    // Both mined; the batch look-up misses them, and the second look-up of the first one
    // the job asks about fails.
    let failing: string | null = null
    class FailingLookUp extends StacksClient {
      async getTransactions() {
        return new Map()
      }
      async getTransaction(txid: string) {
        failing ??= txid
        if (txid === failing) throw new Error('the node dropped the connection')
        return super.getTransaction(txid)
      }
    }

    const summary = await confirmThrough(new FailingLookUp(stacksClientOptions(stack.devnet.url)))

    assert.deepInclude(summary, { confirmed: 1, pending: 0, unsettled: 1 })
    const ids = [first.withdrawal.id, second.withdrawal.id]
    const rows = await db.from('withdrawals').whereIn('id', ids).select('txid', 'status')
    assert.sameDeepMembers(
      rows.map((row) => ({ status: row.status, failedLookUp: row.txid === failing })),
      [
        { status: 'confirmed', failedLookUp: false },
        { status: 'broadcast', failedLookUp: true },
      ]
    )

    // Run by hand or from cron, a run that leaves one unsettled says so with its exit code.
    const ace = await app.container.make('ace')
    ace.ui.switchMode('raw')
    cleanup(() => ace.ui.switchMode('normal'))
    const command = await throughClient(
      new FailingLookUp(stacksClientOptions(stack.devnet.url)),
      async () => {
        const run = await ace.create(WithdrawalsConfirm, [])
        await run.exec()
        return run
      }
    )
    command.assertFailed()
    command.assertLogMatches(/1 not settled now/)

    await stack.confirm()
    const after = await db.from('withdrawals').whereIn('id', ids).select('status')
    assert.deepEqual(
      after.map((row) => row.status),
      ['confirmed', 'confirmed'],
      'settled by the next run'
    )
  })

  test('bytes sent before are never restored on a refusal of a later re-send: only the chain settles them', async ({
    client,
    assert,
  }) => {
    stack.devnet.faults.failNext(1, 503, '/v2/transactions')
    const { withdrawal, providerId, withdrawalWallet } = await withdraw(client)
    stack.devnet.faults.failNext(3, 429, '/v2/transactions', { retryAfterSeconds: null })

    await stack.confirm()

    const after = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(after.status, 'pending')
    assert.equal(await pendingRevenueOf(providerId), 49n * STX, 'not restored')
    await stack.confirm()
    await stack.devnet.mine()
    await stack.confirm()
    const settled = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(settled.status, 'confirmed')
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 1n * STX)
  })

  test('a transaction the node reports dropped is watched, and confirmed when it is mined after all', async ({
    client,
    assert,
  }) => {
    // The node's index reports the transaction dropped while it waits in the mempool.
    stack.devnet.faults.transactionFaultNext('report_dropped', 1)
    const { withdrawal, providerId, withdrawalWallet } = await withdraw(client)
    await stack.confirm()
    const watched = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(watched.status, 'broadcast')
    assert.isNotNull(watched.dropped_at)
    assert.equal(await pendingRevenueOf(providerId), 49n * STX, 'not restored')

    await stack.devnet.mine()
    await stack.confirm()

    const settled = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(settled.status, 'confirmed')
    assert.isNull(settled.dropped_at)
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 1n * STX)
  })

  test('while one sender holds the claim to send a withdrawal, nobody else sends or fails it', async ({
    client,
    assert,
  }) => {
    stack.devnet.faults.failNext(1, 503, '/v2/transactions')
    const { withdrawal, providerId } = await withdraw(client)
    const lifecycle = await app.container.make(WithdrawalLifecycle)
    const claim = await lifecycle.claimSend(withdrawal.id, withdrawal.tx_hash.slice(2), 60_000)
    stack.devnet.faults.failNext(3, 429, '/v2/transactions', { retryAfterSeconds: null })

    const summary = await stack.confirm()
    const second = await lifecycle.claimSend(withdrawal.id, withdrawal.tx_hash.slice(2), 60_000)

    assert.deepEqual(claim, { txid: withdrawal.tx_hash.slice(2), attempt: 2, previousAttempts: 1 })
    assert.isNull(second, 'one sender at a time')
    assert.equal(summary.rebroadcast + summary.failed, 0, 'the job left it alone')
    const row = await db.from('withdrawals').where('id', withdrawal.id).first()
    assert.equal(row.status, 'pending')
    assert.equal(await pendingRevenueOf(providerId), 49n * STX)
    await db.from('withdrawals').where('id', withdrawal.id).update({ sending_until: null })
    stack.devnet.faults.clear()
  })

  test('a sender whose claim was taken over (its lease ran out) can no longer fail or re-sign the withdrawal', async ({
    client,
    assert,
  }) => {
    // Found in review: a stalled sender (or one whose clock lags) applied its own first-send
    // refusal after another sender had sent the same bytes again — restored and paid.
    stack.devnet.faults.failNext(1, 503, '/v2/transactions')
    const { withdrawal, providerId } = await withdraw(client)
    const txid = withdrawal.tx_hash.slice(2)
    const lifecycle = await app.container.make(WithdrawalLifecycle)
    const stalled = (await lifecycle.claimSend(withdrawal.id, txid, 60_000))!
    await db.from('withdrawals').where('id', withdrawal.id).update({ sending_until: null })
    const current = (await lifecycle.claimSend(withdrawal.id, txid, 60_000))!

    const failed = await lifecycle.fail(withdrawal.id, 'refused', { mined: false, claim: stalled })
    const unsigned = await lifecycle.unsign(withdrawal.id, 'bad_nonce', stalled, {
      nonceUsed: true,
    })
    await lifecycle.noteAttempt(withdrawal.id, stalled, 'late answer')
    const afterStalled = await db.from('withdrawals').where('id', withdrawal.id).first()
    await lifecycle.markBroadcast(withdrawal.id, 'ab'.repeat(32), 'other bytes')
    const afterOtherBytes = await db.from('withdrawals').where('id', withdrawal.id).first()

    assert.deepEqual([failed, unsigned], [false, false])
    assert.containsSubset(afterStalled, { status: 'pending', txid })
    assert.isNotNull(afterStalled.sending_until, 'the current claim still holds')
    assert.equal(afterOtherBytes.status, 'pending')
    assert.equal(await pendingRevenueOf(providerId), 49n * STX, 'not restored')
    assert.isTrue(
      await lifecycle.fail(withdrawal.id, 'refused', { mined: false, claim: current }),
      'the current claim still decides'
    )
  })
})
