import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { randomPrivateKey } from '@stacks/transactions'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { PlatformWallet } from '#chain/platform_wallet'
import { LedgerAudit } from '#ledger/ledger_audit'
import Provider from '#models/provider'
import { WithdrawalChainAudit } from '#withdrawals/withdrawal_chain_audit'
import {
  pendingRevenueOf,
  providerWithRevenue,
  useWithdrawalStack,
} from '#tests/support/withdrawals'
import { newOwner } from '#tests/support/providers'
import { useManualClock } from '#tests/support/clock'
import { signIn, signMessage, walletOf } from '#tests/support/sign_in'

const STX = 1_000_000n

function newWallet() {
  const key = randomPrivateKey()
  return { key, address: walletOf(key) }
}

/**
 * Links a withdrawal wallet through the API: the wallet signs, and the owner
 * too unless it is the owner wallet; answers the linked wallet and its hold.
 */
async function linkWallet(
  client: ApiClient,
  owner: { token: string; key: string },
  providerId: string,
  wallet: { key: string; address: string }
) {
  const issued = await client
    .post(`/providers/id/${providerId}/link-wallet/nonce`)
    .bearerToken(owner.token)
    .json({ wallet_address: wallet.address })
  const challenge = issued.body()
  const linked = await client
    .post(`/providers/id/${providerId}/link-wallet`)
    .bearerToken(owner.token)
    .json({
      wallet_address: wallet.address,
      nonce: challenge.nonce,
      signature: signMessage(challenge.message, wallet.key),
      ...(challenge.owner_challenge
        ? {
            owner_nonce: challenge.owner_challenge.nonce,
            owner_signature: signMessage(challenge.owner_challenge.message, owner.key),
          }
        : {}),
    })
  linked.assertStatus(200)
  return linked.body() as { withdrawal_wallet_held_until: string | null }
}

test.group('Withdrawing pending revenue', (group) => {
  const stack = useWithdrawalStack(group, { blockTimeMs: null })

  test('a withdrawal debits pending revenue, broadcasts a memo-tagged transfer and confirms from the chain', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, withdrawalWallet } = await providerWithRevenue(client, 5n * STX)
    const wallet = await app.container.make(PlatformWallet)
    const platformBefore = stack.devnet.balanceOf(wallet.address)
    const key = randomUUID()

    const response = await client
      .post(`/providers/id/${providerId}/withdraw`)
      .bearerToken(owner.token)
      .json({
        amount_microstx: 2_000_000,
        destination_address: withdrawalWallet,
        idempotency_key: key,
      })

    response.assertStatus(201)
    const withdrawal = response.body().withdrawal
    assert.containsSubset(withdrawal, {
      status: 'broadcast',
      amount_microstx: 2_000_000,
      amount_stx: '2',
      destination_address: withdrawalWallet,
      memo: `tb-w-${withdrawal.id.slice(0, 8)}`,
    })
    assert.match(withdrawal.tx_hash, /^0x[0-9a-f]{64}$/)
    // On the devnet, its own transaction page (docs/devnet.md#transaction-pages).
    assert.equal(
      withdrawal.explorer_url,
      `${stack.devnet.url}/txid/${withdrawal.tx_hash}?chain=testnet`
    )
    assert.equal(await pendingRevenueOf(providerId), 3n * STX)

    await stack.devnet.mine()
    const summary = await stack.confirm()

    assert.equal(summary.confirmed, 1)
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 2n * STX)
    assert.equal(
      stack.devnet.balanceOf(wallet.address),
      platformBefore - 2n * STX - BigInt(withdrawal.fee_microstx)
    )
    const listed = await client
      .get(`/providers/id/${providerId}/withdrawals`)
      .bearerToken(owner.token)
    assert.containsSubset(listed.body().withdrawals[0], {
      id: withdrawal.id,
      status: 'confirmed',
      block_height: 1,
    })
    const explorerPage = await fetch(withdrawal.explorer_url)
    assert.equal(explorerPage.status, 200)
    const page = await explorerPage.text()
    for (const fact of [
      withdrawal.tx_hash,
      'confirmed',
      '<dd>1 (1 confirmation)</dd>',
      '2 STX (2000000 µSTX)',
      withdrawalWallet,
      withdrawal.memo,
    ]) {
      assert.include(page, fact)
    }
    const provider = await Provider.findOrFail(providerId)
    assert.equal(provider.totalWithdrawnMicrostx, 2n * STX)
    const shown = await client
      .get(`/providers/id/${providerId}/withdrawals/${withdrawal.id}`)
      .bearerToken(owner.token)
    assert.deepEqual(
      shown.body().withdrawal.history.map((event: { to_status: string }) => event.to_status),
      ['pending', 'pending', 'broadcast', 'confirmed']
    )
    const other = await providerWithRevenue(client, 1n * STX)
    const foreign = await client
      .get(`/providers/id/${other.providerId}/withdrawals/${withdrawal.id}`)
      .bearerToken(other.owner.token)
    foreign.assertStatus(404)
    foreign.assertBodyContains({ error: { code: 'withdrawal_not_found' } })
  })

  test('the same idempotency key returns the original withdrawal; another body with it is 409', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, withdrawalWallet } = await providerWithRevenue(client, 5n * STX)
    const body = {
      amount_microstx: 1_000_000,
      destination_address: withdrawalWallet,
      idempotency_key: randomUUID(),
    }
    const withdraw = (json: object) =>
      client.post(`/providers/id/${providerId}/withdraw`).bearerToken(owner.token).json(json)

    const [first, second] = await Promise.all([withdraw(body), withdraw(body)])
    const again = await withdraw(body)
    const conflict = await withdraw({ ...body, amount_microstx: 1_500_000 })

    assert.sameMembers([first.status(), second.status()], [200, 201])
    assert.equal(first.body().withdrawal.id, second.body().withdrawal.id)
    again.assertStatus(200)
    assert.equal(again.body().withdrawal.id, first.body().withdrawal.id)
    conflict.assertStatus(409)
    conflict.assertBodyContains({ error: { code: 'idempotency_conflict' } })
    assert.equal(await pendingRevenueOf(providerId), 4n * STX, 'debited once')
    await stack.devnet.mine()
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 1n * STX, 'one transfer')
  })

  test('requests are refused in the spec order, each with its code, nothing debited', async ({
    client,
    assert,
  }) => {
    const unlinked = await providerWithRevenue(client, 5n * STX, { linked: false })
    const { owner, providerId, withdrawalWallet } = await providerWithRevenue(client, 5n * STX)
    const withdraw = (id: string, token: string, json: Record<string, unknown>) =>
      client
        .post(`/providers/id/${id}/withdraw`)
        .bearerToken(token)
        .json({ destination_address: withdrawalWallet, idempotency_key: randomUUID(), ...json })

    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount_microstx: 999_999 }, 422, 'amount_below_minimum'],
      [{ amount_microstx: 1_000_000_001 }, 422, 'amount_above_maximum'],
      [{ amount_microstx: 6_000_000 }, 409, 'insufficient_pending_revenue'],
      [
        { amount_microstx: 1_000_000, destination_address: unlinked.withdrawalWallet },
        422,
        'destination_not_linked_wallet',
      ],
      [{ amount_microstx: 1_000_000, idempotency_key: 'not-a-uuid' }, 422, 'validation_failed'],
      [{ amount_microstx: 1.5 }, 422, 'validation_failed'],
    ]
    for (const [json, status, code] of cases) {
      const response = await withdraw(providerId, owner.token, json)
      assert.equal(response.status(), status, code)
      assert.equal(response.body().error.code, code)
    }
    const notLinked = await withdraw(unlinked.providerId, unlinked.owner.token, {
      amount_microstx: 1_000_000,
    })
    notLinked.assertStatus(409)
    notLinked.assertBodyContains({ error: { code: 'wallet_not_linked' } })
    const stranger = await newOwner(client)
    const foreign = await withdraw(providerId, stranger.token, { amount_microstx: 1_000_000 })
    foreign.assertStatus(403)
    const anonymous = await client.post(`/providers/id/${providerId}/withdraw`).json({})
    anonymous.assertStatus(401)

    assert.equal(await pendingRevenueOf(providerId), 5n * STX)
    const [{ count }] = await db.from('withdrawals').count('* as count')
    assert.equal(Number(count), 0)
  })

  test("with the owner's session token alone, a stranger can neither link its wallet nor withdraw", async ({
    client,
    assert,
  }) => {
    const { owner, providerId } = await providerWithRevenue(client, 5n * STX, { linked: false })
    const stolenToken = owner.token
    const attacker = newWallet()
    const ask = await client
      .post(`/providers/id/${providerId}/link-wallet/nonce`)
      .bearerToken(stolenToken)
      .json({ wallet_address: attacker.address })
    const issued = ask.body()
    const attackerSigned = {
      wallet_address: attacker.address,
      nonce: issued.nonce,
      signature: signMessage(issued.message, attacker.key),
    }
    const linkAs = (body: object) =>
      client.post(`/providers/id/${providerId}/link-wallet`).bearerToken(stolenToken).json(body)

    const alone = await linkAs(attackerSigned)
    const selfApproved = await linkAs({
      ...attackerSigned,
      owner_nonce: issued.owner_challenge.nonce,
      owner_signature: signMessage(issued.owner_challenge.message, attacker.key),
    })
    const withdrawn = await client
      .post(`/providers/id/${providerId}/withdraw`)
      .bearerToken(stolenToken)
      .json({
        amount_microstx: 5_000_000,
        destination_address: attacker.address,
        idempotency_key: randomUUID(),
      })

    alone.assertStatus(403)
    alone.assertBodyContains({ error: { code: 'owner_signature_required' } })
    selfApproved.assertStatus(401)
    selfApproved.assertBodyContains({ error: { code: 'signature_invalid' } })
    withdrawn.assertStatus(409)
    withdrawn.assertBodyContains({ error: { code: 'wallet_not_linked' } })
    const provider = await Provider.findOrFail(providerId)
    assert.isNull(provider.linkedWithdrawalWallet)
    assert.equal(await pendingRevenueOf(providerId), 5n * STX)
    assert.equal(stack.devnet.balanceOf(attacker.address), 0n)
  })

  test('withdrawals to a newly linked wallet other than the owner wallet wait out the hold', async ({
    client,
    assert,
  }) => {
    const { owner, providerId } = await providerWithRevenue(client, 5n * STX, { linked: false })
    const { clock, restore } = await useManualClock()
    try {
      const third = newWallet()
      const linked = await linkWallet(client, owner, providerId, third)
      const withdraw = (token: string) =>
        client.post(`/providers/id/${providerId}/withdraw`).bearerToken(token).json({
          amount_microstx: 1_000_000,
          destination_address: third.address,
          idempotency_key: randomUUID(),
        })

      const held = await withdraw(owner.token)
      clock.advance(24 * 60 * 60_000 - 1)
      // A day later the owner signs in again: a session lasts 12 hours.
      const { token } = await signIn(client, owner.key)
      const stillHeld = await withdraw(token)
      clock.advance(1)
      const allowed = await withdraw(token)

      const heldUntil = new Date(clock.now()).toISOString()
      assert.equal(linked.withdrawal_wallet_held_until, heldUntil)
      for (const refused of [held, stillHeld]) {
        refused.assertStatus(409)
        refused.assertBodyContains({ error: { code: 'withdrawal_wallet_on_hold' } })
        assert.include(refused.body().error.message, `held until ${heldUntil}`)
      }
      allowed.assertStatus(201)
      assert.equal(await pendingRevenueOf(providerId), 4n * STX)
    } finally {
      restore()
    }
  })

  test('the owner wallet, linked with its one signature, is paid at once', async ({
    client,
    assert,
  }) => {
    const { owner, providerId } = await providerWithRevenue(client, 5n * STX, { linked: false })
    const ownWallet = { key: owner.key, address: owner.walletAddress }

    const linked = await linkWallet(client, owner, providerId, ownWallet)
    const withdrawn = await client
      .post(`/providers/id/${providerId}/withdraw`)
      .bearerToken(owner.token)
      .json({
        amount_microstx: 2_000_000,
        destination_address: owner.walletAddress,
        idempotency_key: randomUUID(),
      })

    assert.isNull(linked.withdrawal_wallet_held_until)
    withdrawn.assertStatus(201)
    assert.equal(withdrawn.body().withdrawal.status, 'broadcast')
    assert.equal(await pendingRevenueOf(providerId), 3n * STX)
  })

  test('a hundred concurrent withdrawals against a balance that covers ten: exactly ten succeed', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, withdrawalWallet } = await providerWithRevenue(client, 10n * STX)

    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        client.post(`/providers/id/${providerId}/withdraw`).bearerToken(owner.token).json({
          amount_microstx: 1_000_000,
          destination_address: withdrawalWallet,
          idempotency_key: randomUUID(),
        })
      )
    )

    const statuses = responses.map((response) => response.status())
    assert.equal(statuses.filter((status) => status === 201).length, 10)
    assert.equal(statuses.filter((status) => status === 409).length, 90)
    assert.equal(await pendingRevenueOf(providerId), 0n)
    await stack.devnet.mine()
    await stack.confirm()
    assert.equal(stack.devnet.balanceOf(withdrawalWallet), 10n * STX)
  })

  test('the audit checks confirmed withdrawals against the chain and every withdrawal against its postings', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, withdrawalWallet } = await providerWithRevenue(client, 5n * STX)
    const response = await client
      .post(`/providers/id/${providerId}/withdraw`)
      .bearerToken(owner.token)
      .json({
        amount_microstx: 1_000_000,
        destination_address: withdrawalWallet,
        idempotency_key: randomUUID(),
      })
    const { id } = response.body().withdrawal
    await stack.devnet.mine()
    await stack.confirm()
    const onChain = await app.container.make(WithdrawalChainAudit)
    const ledger = await app.container.make(LedgerAudit)
    assert.deepEqual(await onChain.run(), [])

    await db.from('withdrawals').where('id', id).update({ memo: 'tb-w-forged00', status: 'failed' })
    const chainFindings = await onChain.run()
    const { discrepancies: ledgerFindings } = await ledger.run()
    await db
      .from('withdrawals')
      .where('id', id)
      .update({ memo: `tb-w-${id.slice(0, 8)}`, status: 'confirmed' })

    assert.lengthOf(chainFindings, 1)
    assert.include(chainFindings[0], `failed withdrawal ${id}: 0x`)
    assert.include(chainFindings[0], 'was mined successfully, yet its amount was restored')
    assert.lengthOf(ledgerFindings, 1)
    assert.include(ledgerFindings[0], `withdrawal ${id} (failed`)
    await db.from('withdrawals').where('id', id).update({ memo: 'tb-w-forged00' })
    const forged = await onChain.run()
    await db
      .from('withdrawals')
      .where('id', id)
      .update({ memo: `tb-w-${id.slice(0, 8)}` })
    assert.deepEqual(forged, [
      `confirmed withdrawal ${id}: carries memo "tb-w-${id.slice(0, 8)}", not "tb-w-forged00"`,
    ])
  })

  test('the history comes newest first, as JSON or CSV, with a bounded limit', async ({
    client,
    assert,
  }) => {
    const { owner, providerId, withdrawalWallet } = await providerWithRevenue(client, 5n * STX)
    for (const amount of [1_000_000, 1_500_000]) {
      await client.post(`/providers/id/${providerId}/withdraw`).bearerToken(owner.token).json({
        amount_microstx: amount,
        destination_address: withdrawalWallet,
        idempotency_key: randomUUID(),
      })
    }
    const history = (query: Record<string, unknown>, accept = 'application/json') =>
      client
        .get(`/providers/id/${providerId}/withdrawals`)
        .qs(query)
        .header('accept', accept)
        .bearerToken(owner.token)

    const all = await history({})
    const one = await history({ limit: 1 })
    const csv = await history({}, 'text/csv')
    const zero = await history({ limit: 0 })

    assert.deepEqual(
      all.body().withdrawals.map((row: { amount_microstx: number }) => row.amount_microstx),
      [1_500_000, 1_000_000]
    )
    assert.lengthOf(one.body().withdrawals, 1)
    assert.include(csv.header('content-type'), 'text/csv')
    const lines = csv.text().trim().split('\r\n')
    assert.equal(
      lines[0],
      'id,created_at,status,amount_microstx,amount_stx,destination_address,memo,tx_hash,block_height,fee_microstx,failure_reason'
    )
    assert.lengthOf(lines, 3)
    assert.include(lines[1], ',broadcast,1500000,1.5,')
    zero.assertStatus(422)
  })
})
