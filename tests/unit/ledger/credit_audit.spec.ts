import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { accounts } from '#ledger/accounts'
import { Ledger, type Posting } from '#ledger/ledger'
import { LedgerAudit } from '#ledger/ledger_audit'
import { inGlobalTransaction } from '#tests/support/database'

/*
 * ledger:audit's credit checks (docs/credit.md#top-ups). Credit calls and
 * refunds are written here as their owners write them — a row, then its
 * posting — directly, to plant what the code would never write.
 */

const WALLETS = {
  a: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
  b: 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
  c: 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC',
  d: 'ST2NEB84ASENDXKYGJPQW86YXQCEFEX2ZQPG87ND',
  e: 'ST2REHHS5J3CERCRBEPMGH7921Q6PYKAADT7JP2VB',
  f: 'ST3AM1A56AK2C1XAFJ4115ZSV26EB49BVQ10MGCS0',
  g: 'ST3PF13W7Z0RRM42A8VZRVFQ75SV1K26RXEP8YGKJ',
}

async function post(posting: Posting) {
  const ledger = await app.container.make(Ledger)
  return db.transaction((trx) => ledger.post(trx, posting))
}

function newTxid() {
  return randomUUID().replaceAll('-', '').repeat(2)
}

async function whaleAlerts(): Promise<string> {
  const feed = await db.from('feeds').where('slug', 'whale-alerts').select('id').firstOrFail()
  return feed.id
}

/** A payment row as PaymentLifecycle leaves a confirmed one. */
async function paymentRow(payer: string, amount: bigint, purpose: 'credit_top_up' | 'feed') {
  const txid = newTxid()
  await db.table('payments').insert({
    txid,
    purpose,
    feed_id: purpose === 'feed' ? await whaleAlerts() : null,
    resource: purpose === 'feed' ? 'GET /feeds/whale-alerts' : 'POST /credit/top-ups?amount_stx=1',
    payer,
    amount_microstx: amount.toString(),
    network: 'stacks:2147483648',
    raw_tx: Buffer.from([1]),
    status: 'confirmed',
    broadcast_at: new Date(),
  })
  return txid
}

function topUpPosting(reference: string, payer: string, amount: bigint): Posting {
  return {
    kind: 'credit_top_up',
    reference,
    entries: [
      { account: accounts.platformWallet, amount },
      { account: accounts.buyerCredit(payer), amount: -amount },
    ],
  }
}

/** A confirmed top-up, posted as PaymentLifecycle.confirm posts it. */
async function topUp(payer: string, amount: bigint) {
  const txid = await paymentRow(payer, amount, 'credit_top_up')
  await post(topUpPosting(txid, payer, amount))
  return txid
}

/** A credit token of `payer`, with what it spent. */
async function creditToken(payer: string, spent: bigint, maxPrice = 1_000_000n) {
  const [token] = await db
    .table('credit_tokens')
    .insert({
      token_hash: randomUUID(),
      address: payer,
      spend_cap_microstx: '10000000',
      max_price_microstx: maxPrice.toString(),
      spent_microstx: spent.toString(),
      sign_in_nonce: randomUUID(),
      expires_at: new Date(Date.now() + 3_600_000),
      created_at: new Date(),
    })
    .returning('id')
  return token.id as string
}

/** A credit call's row (and its token's, which spent its price, unless another token is given), unposted. */
async function creditCallRow(payer: string, price: bigint, tokenId?: string) {
  const [call] = await db
    .table('credit_calls')
    .insert({
      token_id: tokenId ?? (await creditToken(payer, price)),
      payer,
      feed_id: await whaleAlerts(),
      resource: 'GET /feeds/whale-alerts',
      price_microstx: price.toString(),
      response: '{}',
      response_ms: 1,
      created_at: new Date(),
    })
    .returning('id')
  return call.id as string
}

async function postCreditCall(reference: string, payer: string, price: bigint) {
  const ledger = await app.container.make(Ledger)
  await post({
    kind: 'credit_call',
    reference,
    entries: ledger.paymentEntries({
      amount: price,
      providerId: null,
      paidFrom: accounts.buyerCredit(payer),
    }),
  })
}

/** A refund: a withdrawal of the wallet's credit to itself, debited (and reversed if failed). */
async function refund(payer: string, amount: bigint, status: 'pending' | 'failed') {
  const [row] = await db
    .table('withdrawals')
    .insert({
      provider_id: null,
      credit_address: payer,
      destination_address: payer,
      idempotency_key: randomUUID(),
      amount_microstx: amount.toString(),
      memo: 'refund',
      status,
    })
    .returning('id')
  await post({
    kind: 'withdrawal',
    reference: row.id,
    entries: [
      { account: accounts.buyerCredit(payer), amount },
      { account: accounts.payoutsInFlight, amount: -amount },
    ],
  })
  if (status === 'failed') {
    await post({
      kind: 'withdrawal_reversal',
      reference: row.id,
      entries: [
        { account: accounts.payoutsInFlight, amount },
        { account: accounts.buyerCredit(payer), amount: -amount },
      ],
    })
  }
}

async function audit() {
  const ledgerAudit = await app.container.make(LedgerAudit)
  return ledgerAudit.run()
}

test.group('Auditing prepaid credit', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test("a wallet's top-ups, credit calls and refunds that agree with its credit pass the audit", async ({
    assert,
  }) => {
    await topUp(WALLETS.a, 1_000_000n)
    await topUp(WALLETS.a, 250_000n)
    await postCreditCall(await creditCallRow(WALLETS.a, 5_000n), WALLETS.a, 5_000n)
    await refund(WALLETS.a, 200_000n, 'pending')
    await refund(WALLETS.a, 100_000n, 'failed')

    const report = await audit()

    assert.deepEqual(report.discrepancies, [])
    const ledger = await app.container.make(Ledger)
    assert.equal(await ledger.balanceOf(accounts.buyerCredit(WALLETS.a)), -1_045_000n)
  })

  test('credit that drifts from its top-ups, calls and refunds is reported, and so is every posting without its event', async ({
    assert,
  }) => {
    const unposted = await paymentRow(WALLETS.a, 1_000_000n, 'credit_top_up')
    await post(topUpPosting('f'.repeat(64), WALLETS.b, 300_000n))
    await topUp(WALLETS.c, 1_000_000n)
    const underPosted = await creditCallRow(WALLETS.c, 5_000n)
    await postCreditCall(underPosted, WALLETS.c, 4_000n)
    await topUp(WALLETS.d, 100_000n)
    const unpostedCall = await creditCallRow(WALLETS.d, 5_000n)
    await topUp(WALLETS.f, 50_000n)
    const phantomCall = randomUUID()
    await postCreditCall(phantomCall, WALLETS.f, 5_000n)
    const feedPayment = await paymentRow(WALLETS.g, 20_000n, 'feed')
    await post(topUpPosting(feedPayment, WALLETS.g, 20_000n))
    // Bypasses Ledger.post, last: inside the global transaction the deferred no-negative check
    // runs only when a posting runs it.
    await db.rawQuery(
      `INSERT INTO ledger_accounts (name, kind, wallet_address, may_go_negative) VALUES (?, 'buyer_credit', ?, false)`,
      [accounts.buyerCredit(WALLETS.e).name, WALLETS.e]
    )
    const overdraft = await db.rawQuery(
      `INSERT INTO ledger_transactions (kind, reference) VALUES ('test', 'overdraft') RETURNING id`
    )
    const overdraftId: string = overdraft.rows[0].id
    await db.table('ledger_entries').multiInsert([
      {
        transaction_id: overdraftId,
        account: accounts.buyerCredit(WALLETS.e).name,
        amount_microstx: '700',
      },
      {
        transaction_id: overdraftId,
        account: accounts.platformWallet.name,
        amount_microstx: '-700',
      },
    ])

    const report = await audit()

    const credit = (address: string, balance: number, topUps: number, calls: number) =>
      `credit of ${address}: balance ${balance} µSTX, its top-ups ${topUps} less calls ${calls} and refunds 0 make ${topUps - calls} µSTX`
    assert.sameMembers(report.discrepancies, [
      `confirmed top-up 0x${unposted} has no ledger posting`,
      credit(WALLETS.a, 0, 1_000_000, 0),
      `credit_top_up posting "${'f'.repeat(64)}" has no payment this service claimed`,
      credit(WALLETS.b, 300_000, 0, 0),
      `credit_call posting "${underPosted}" debits 4000 µSTX of ${WALLETS.c}'s credit, the call cost 5000 µSTX`,
      credit(WALLETS.c, 996_000, 1_000_000, 5_000),
      `credit call ${unpostedCall} has no ledger posting`,
      credit(WALLETS.d, 100_000, 100_000, 5_000),
      `account ${accounts.buyerCredit(WALLETS.e).name}: kept debits/credits 700/0 µSTX, entries say 700/0, below zero`,
      `${credit(WALLETS.e, -700, 0, 0)}, below zero`,
      `credit_call posting "${phantomCall}" has no credit call`,
      credit(WALLETS.f, 45_000, 50_000, 0),
      `credit_top_up posting "${feedPayment}" credits a feed settlement, not a top-up`,
      `confirmed payment 0x${feedPayment} has no ledger posting`,
      credit(WALLETS.g, 20_000, 0, 0),
    ])
  })

  test("a credit token whose spend differs from its calls, or a call above the token's maximum price, is reported", async ({
    assert,
  }) => {
    await topUp(WALLETS.a, 1_000_000n)
    const overspent = await creditToken(WALLETS.a, 8_000n)
    await postCreditCall(await creditCallRow(WALLETS.a, 5_000n, overspent), WALLETS.a, 5_000n)
    const underspent = await creditToken(WALLETS.a, 0n)
    await postCreditCall(await creditCallRow(WALLETS.a, 3_000n, underspent), WALLETS.a, 3_000n)
    const cheap = await creditToken(WALLETS.a, 20_000n, 10_000n)
    const dear = await creditCallRow(WALLETS.a, 20_000n, cheap)
    await postCreditCall(dear, WALLETS.a, 20_000n)

    const report = await audit()

    assert.sameMembers(report.discrepancies, [
      `credit token ${overspent} of ${WALLETS.a} spent 8000 µSTX, its calls cost 5000 µSTX`,
      `credit token ${underspent} of ${WALLETS.a} spent 0 µSTX, its calls cost 3000 µSTX`,
      `credit call ${dear} cost 20000 µSTX, above its token ${cheap}'s maximum price 10000 µSTX`,
    ])
  })
})
