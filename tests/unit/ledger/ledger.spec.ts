import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import type { Database } from '@adonisjs/lucid/database'
import { type LedgerAccount, accounts } from '#ledger/accounts'
import { Ledger, type Posting } from '#ledger/ledger'
import { LedgerAudit } from '#ledger/ledger_audit'
import {
  E_EXCEEDS_CREDITS,
  E_EXISTS_WITH_DIFFERENT_ENTRIES,
  E_INVALID_POSTING,
  E_UNBALANCED_POSTING,
} from '#ledger/exceptions'
import LedgerAuditCommand from '../../../commands/ledger_audit.js'
import Provider from '#models/provider'
import { lockedProvider } from '#provider_accounts/provider_access'
import { emptyMarketplace, inGlobalTransaction } from '#tests/support/database'
import { createProviderRow } from '#tests/support/providers'

async function services() {
  return {
    db: (await app.container.make('lucid.db')) as Database,
    ledger: await app.container.make(Ledger),
  }
}

async function post(posting: Posting) {
  const { db, ledger } = await services()
  return db.transaction((trx) => ledger.post(trx, posting))
}

type RawExecutor = (sql: string, bindings?: string[]) => PromiseLike<{ rows: any[] }>

/**
 * Bypasses Ledger.post, to put in the database what the code would refuse:
 * entries on the platform wallet, an account with no limit.
 */
async function insertRaw(
  run: RawExecutor,
  reference: string,
  amounts: bigint[],
  account = 'platform:wallet'
) {
  await run(
    `INSERT INTO ledger_accounts (name, kind, may_go_negative)
     VALUES ('platform:wallet', 'platform_wallet', true) ON CONFLICT DO NOTHING`
  )
  const inserted = await run(
    `INSERT INTO ledger_transactions (kind, reference) VALUES ('test', ?) RETURNING id`,
    [reference]
  )
  const id: string = inserted.rows[0].id
  for (const amount of amounts) {
    await run(
      `INSERT INTO ledger_entries (transaction_id, account, amount_microstx) VALUES (?, ?, ?)`,
      [id, account, amount.toString()]
    )
  }
  return id
}

/** A Lucid client (the global transaction, a savepoint) as a RawExecutor. */
function through(client: Pick<Database, 'rawQuery'>): RawExecutor {
  return (sql, bindings) => client.rawQuery(sql, bindings)
}

test.group('Posting to the ledger', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test("a provider feed's payment credits the platform fee and the provider's pending share", async ({
    assert,
  }) => {
    const { ledger } = await services()
    const { id: providerId } = await createProviderRow()

    const result = await post({
      kind: 'payment',
      reference: '0xabc',
      entries: ledger.paymentEntries({ amount: 5000n, providerId }),
    })

    assert.isFalse(result.alreadyPosted)
    assert.equal(await ledger.balanceOf(accounts.platformWallet), 5000n)
    assert.equal(await ledger.balanceOf(accounts.platformFees), -150n)
    assert.equal(await ledger.balanceOf(accounts.providerPending(providerId)), -4850n)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), 0n)
    // The provider's cached balances moved in the same transaction.
    const provider = await Provider.findOrFail(providerId)
    assert.equal(provider.pendingRevenueMicrostx, 4850n)
    assert.equal(provider.lifetimeEarnedMicrostx, 4850n)
  })

  test('a withdrawal debits only what the pending revenue covers', async ({ assert }) => {
    const { db, ledger } = await services()
    const { id: providerId } = await createProviderRow()
    await post({
      kind: 'payment',
      reference: '0xfeed',
      entries: ledger.paymentEntries({ amount: 5000n, providerId }),
    })
    const debit = (id: string, amount: bigint) =>
      db.transaction((trx) =>
        ledger.debitForWithdrawal(trx, {
          id,
          source: accounts.providerPending(providerId),
          amount,
        })
      )

    const refused = await debit('00000000-0000-4000-8000-000000000001', 4851n)
    const taken = await debit('00000000-0000-4000-8000-000000000002', 4850n)

    assert.isFalse(refused)
    assert.isTrue(taken)
    const provider = await Provider.findOrFail(providerId)
    assert.equal(provider.pendingRevenueMicrostx, 0n)
    assert.equal(provider.totalWithdrawnMicrostx, 4850n)
    assert.equal(await ledger.balanceOf(accounts.payoutsInFlight), -4850n)
    const postings = await db
      .from('ledger_transactions')
      .where('kind', 'withdrawal')
      .select('reference')
    assert.deepEqual(postings, [{ reference: '00000000-0000-4000-8000-000000000002' }])
  })

  test('a posting that would take a pending revenue below zero is refused and writes nothing', async ({
    assert,
  }) => {
    const { db } = await services()
    const { id: providerId } = await createProviderRow()

    await assert.rejects(
      () =>
        post({
          kind: 'withdrawal',
          reference: '00000000-0000-4000-8000-000000000003',
          entries: [
            { account: accounts.providerPending(providerId), amount: 1n },
            { account: accounts.payoutsInFlight, amount: -1n },
          ],
        }),
      E_EXCEEDS_CREDITS
    )

    assert.lengthOf(await db.from('ledger_transactions').where('kind', 'withdrawal'), 0)
    const provider = await Provider.findOrFail(providerId)
    assert.equal(provider.pendingRevenueMicrostx, 0n)
  })

  test('a payout with no withdrawal debited in flight is refused: the payouts in flight may not go negative', async ({
    assert,
  }) => {
    const { db, ledger } = await services()
    const withdrawal = { id: '00000000-0000-4000-8000-000000000004', amount: 1_000n }

    await assert.rejects(
      () => db.transaction((trx) => ledger.payOutWithdrawal(trx, withdrawal)),
      E_EXCEEDS_CREDITS
    )

    assert.lengthOf(await db.from('ledger_transactions').where('kind', 'withdrawal_payout'), 0)
    assert.equal(await ledger.balanceOf(accounts.platformWallet), 0n)
  })

  test('a limited account may dip inside a posting as long as it is not negative at its end', async ({
    assert,
  }) => {
    const { ledger } = await services()
    const { id: providerId } = await createProviderRow()

    await post({
      kind: 'opening_balance',
      reference: providerId,
      entries: [
        { account: accounts.providerPending(providerId), amount: 700n },
        { account: accounts.providerPending(providerId), amount: -1_000n },
        { account: accounts.platformWallet, amount: 300n },
      ],
    })

    assert.equal(await ledger.balanceOf(accounts.providerPending(providerId)), -300n)
    const provider = await Provider.findOrFail(providerId)
    assert.equal(provider.pendingRevenueMicrostx, 300n)
  })

  test('an entry on an account that is not one of the typed ledger accounts is refused', async ({
    assert,
  }) => {
    const { db } = await services()
    const { id: providerId } = await createProviderRow()
    const forged: LedgerAccount[] = [
      // A name no kind has.
      {
        name: 'platform:treasury',
        kind: 'platform_wallet',
        providerId: null,
        walletAddress: null,
        mayGoNegative: true,
      },
      // A wallet's credit declared free to go negative, or named after another wallet.
      { ...accounts.buyerCredit('ST000000000000000000002AMW42H'), mayGoNegative: true },
      { ...accounts.buyerCredit('ST000000000000000000002AMW42H'), walletAddress: 'ST1OTHER' },
      // A provider's revenue declared free to go negative.
      { ...accounts.providerPending(providerId), mayGoNegative: true },
      // Another kind's name.
      { ...accounts.platformFees, kind: 'platform_revenue' },
      // A provider that does not exist.
      accounts.providerPending('00000000-0000-4000-8000-0000000000ff'),
    ]

    for (const account of forged) {
      await assert.rejects(
        () =>
          post({
            kind: 'opening_balance',
            reference: `forged-${account.name}`,
            entries: [
              { account, amount: -5n },
              { account: accounts.platformWallet, amount: 5n },
            ],
          }),
        E_INVALID_POSTING
      )
    }
    // Around Ledger.post, an entry on an account the ledger does not hold.
    await assert.rejects(
      () => db.transaction((trx) => insertRaw(through(trx), 'untyped', [5n, -5n], 'a')),
      /ledger_entries_account_fkey/
    )

    assert.lengthOf(await db.from('ledger_transactions'), 0)
    assert.lengthOf(await db.from('ledger_accounts').whereNot('kind', 'platform_wallet'), 0)
  })

  test('a built-in feed’s payment is all platform revenue', async ({ assert }) => {
    const { ledger } = await services()

    await post({
      kind: 'payment',
      reference: '0xdef',
      entries: ledger.paymentEntries({ amount: 5000n, providerId: null }),
    })

    assert.equal(await ledger.balanceOf(accounts.platformWallet), 5000n)
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), -5000n)
    assert.equal(await ledger.balanceOf(accounts.platformFees), 0n)
  })

  test("a call paid from credit splits its price like a payment and never takes the wallet's credit below zero", async ({
    assert,
  }) => {
    const { ledger } = await services()
    const { id: providerId } = await createProviderRow()
    const wallet = accounts.buyerCredit('ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG')
    await post({
      kind: 'credit_top_up',
      reference: 'c0ffee',
      entries: [
        { account: accounts.platformWallet, amount: 15_000n },
        { account: wallet, amount: -15_000n },
      ],
    })
    const call = (reference: string) =>
      post({
        kind: 'credit_call',
        reference,
        entries: ledger.paymentEntries({ amount: 10_000n, providerId, paidFrom: wallet }),
      })

    await call('call-1')
    await assert.rejects(() => call('call-2'), E_EXCEEDS_CREDITS)

    assert.equal(await ledger.balanceOf(wallet), -5_000n)
    assert.equal(await ledger.balanceOf(accounts.providerPending(providerId)), -9_700n)
    assert.equal(await ledger.balanceOf(accounts.platformFees), -300n)
    assert.equal(await ledger.balanceOf(accounts.platformWallet), 15_000n)
  })

  test('a payment too small to carry a fee credits the provider everything', async ({ assert }) => {
    const { ledger } = await services()
    const { id: providerId } = await createProviderRow()

    assert.deepEqual(ledger.paymentEntries({ amount: 33n, providerId }), [
      { account: accounts.platformWallet, amount: 33n },
      { account: accounts.providerPending(providerId), amount: -33n },
    ])
  })

  test('posting the same kind and reference twice records the event once', async ({ assert }) => {
    const { ledger } = await services()
    const { id: providerId } = await createProviderRow()
    const payment: Posting = {
      kind: 'payment',
      reference: '0x123',
      entries: ledger.paymentEntries({ amount: 10_000n, providerId }),
    }

    const first = await post(payment)
    const second = await post(payment)

    assert.isFalse(first.alreadyPosted)
    assert.deepEqual(second, { transactionId: first.transactionId, alreadyPosted: true })
    assert.equal(await ledger.balanceOf(accounts.platformWallet), 10_000n)
    assert.equal(await ledger.balanceOf(accounts.providerPending(providerId)), -9_700n)
  })

  test('the same kind, reference and entries in another order is the same event', async ({
    assert,
  }) => {
    const { ledger } = await services()
    const entries = [
      { account: accounts.platformWallet, amount: 7n },
      { account: accounts.networkFees, amount: 3n },
      { account: accounts.platformRevenue, amount: -10n },
    ]

    const first = await post({ kind: 'withdrawal_fee', reference: 'w-2', entries })
    const second = await post({
      kind: 'withdrawal_fee',
      reference: 'w-2',
      entries: [entries[2], entries[0], entries[1]],
    })

    assert.deepEqual(second, { transactionId: first.transactionId, alreadyPosted: true })
    assert.equal(await ledger.balanceOf(accounts.platformRevenue), -10n)
  })

  test('the same kind and reference with other entries is refused, logged, and writes nothing', async ({
    assert,
  }) => {
    const { db, ledger } = await services()
    const { id: providerId } = await createProviderRow()
    await post({
      kind: 'payment',
      reference: '0x321',
      entries: ledger.paymentEntries({ amount: 10_000n, providerId }),
    })
    const logged: unknown[] = []
    const error = logger.error
    logger.error = ((fields: unknown) => void logged.push(fields)) as typeof logger.error

    try {
      await assert.rejects(
        () =>
          post({
            kind: 'payment',
            reference: '0x321',
            entries: ledger.paymentEntries({ amount: 20_000n, providerId }),
          }),
        E_EXISTS_WITH_DIFFERENT_ENTRIES
      )
    } finally {
      logger.error = error
    }

    assert.deepEqual(logged, [
      {
        kind: 'payment',
        reference: '0x321',
        existing_entries: [
          `platform:fees -300`,
          `platform:wallet 10000`,
          `provider:${providerId}:pending -9700`,
        ],
        posted_entries: [
          `platform:fees -600`,
          `platform:wallet 20000`,
          `provider:${providerId}:pending -19400`,
        ],
      },
    ])

    assert.equal(await ledger.balanceOf(accounts.platformWallet), 10_000n)
    const provider = await Provider.findOrFail(providerId)
    assert.equal(provider.pendingRevenueMicrostx, 9_700n)
    const entries = await db
      .from('ledger_entries')
      .join('ledger_transactions', 'ledger_transactions.id', 'ledger_entries.transaction_id')
      .where('reference', '0x321')
    assert.lengthOf(entries, 3)
  })

  test('the same reference under another kind is another event', async ({ assert }) => {
    const { ledger } = await services()
    const entries = [
      { account: accounts.platformWallet, amount: 7n },
      { account: accounts.platformRevenue, amount: -7n },
    ]

    const withdrawal = await post({ kind: 'withdrawal', reference: 'w-1', entries })
    const reversal = await post({ kind: 'withdrawal_reversal', reference: 'w-1', entries })

    assert.notEqual(withdrawal.transactionId, reversal.transactionId)
    assert.equal(await ledger.balanceOf(accounts.platformWallet), 14n)
  })

  test('unbalanced, empty or zero-amount postings are refused and nothing is written', async ({
    assert,
  }) => {
    const { db } = await services()

    await assert.rejects(
      () =>
        post({
          kind: 'payment',
          reference: 'r',
          entries: [
            { account: accounts.platformWallet, amount: 10n },
            { account: accounts.platformRevenue, amount: -9n },
          ],
        }),
      E_UNBALANCED_POSTING
    )
    await assert.rejects(
      () => post({ kind: 'payment', reference: 'r', entries: [] }),
      E_INVALID_POSTING
    )
    await assert.rejects(
      () =>
        post({
          kind: 'payment',
          reference: 'r',
          entries: [
            { account: accounts.platformWallet, amount: 0n },
            { account: accounts.platformRevenue, amount: 0n },
          ],
        }),
      E_INVALID_POSTING
    )

    const rows = await db.from('ledger_transactions').where('reference', 'r')
    assert.lengthOf(rows, 0)
  })

  test('a posting fails at once when the transaction already holds unbalanced entries', async ({
    assert,
  }) => {
    const { db, ledger } = await services()

    await assert.rejects(
      () =>
        db.transaction(async (trx) => {
          await insertRaw(through(trx), 'stray', [100n])
          await ledger.post(trx, {
            kind: 'payment',
            reference: '0x789',
            entries: ledger.paymentEntries({ amount: 5000n, providerId: null }),
          })
        }),
      /does not balance: its entries sum to 100 µSTX/
    )
  })

  test('entries and transactions can be neither updated nor deleted', async ({ assert }) => {
    const { db, ledger } = await services()
    await post({
      kind: 'payment',
      reference: '0x456',
      entries: ledger.paymentEntries({ amount: 5000n, providerId: null }),
    })

    // Each attempt in its own savepoint: a failed statement aborts the enclosing transaction.
    const attempts = [
      `UPDATE ledger_entries SET amount_microstx = amount_microstx * 2`,
      `DELETE FROM ledger_entries`,
      `UPDATE ledger_transactions SET reference = 'other'`,
      `DELETE FROM ledger_transactions`,
    ]
    for (const sql of attempts) {
      await assert.rejects(() => db.transaction((trx) => trx.rawQuery(sql)), /append-only/)
    }

    assert.equal(await ledger.balanceOf(accounts.platformWallet), 5000n)
  })
})

/*
 * The balance trigger is DEFERRABLE INITIALLY DEFERRED: it runs at COMMIT.
 * Under withGlobalTransaction nothing ever commits (a nested db.transaction()
 * is only a savepoint, and releasing a savepoint runs no deferred trigger), so
 * this group commits real transactions and erases its own rows afterwards.
 */
test.group('The database refusing an unbalanced ledger transaction', (group) => {
  const references: string[] = []

  group.each.teardown(async () => {
    const { db } = await services()
    await db.transaction(async (trx) => {
      await trx.rawQuery('ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only')
      await trx.rawQuery(
        'ALTER TABLE ledger_transactions DISABLE TRIGGER ledger_transactions_append_only'
      )
      const ids = trx.from('ledger_transactions').whereIn('reference', references).select('id')
      await trx.from('ledger_entries').whereIn('transaction_id', ids).delete()
      await trx.from('ledger_transactions').whereIn('reference', references).delete()
      await trx.rawQuery('ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only')
      await trx.rawQuery(
        'ALTER TABLE ledger_transactions ENABLE TRIGGER ledger_transactions_append_only'
      )
    })
    references.length = 0
  })

  async function committed<T>(work: (run: RawExecutor) => Promise<T>): Promise<T> {
    const { db } = await services()
    return db
      .connection()
      .getWriteClient()
      .transaction((trx) => work((sql, bindings) => trx.raw(sql, bindings ?? [])))
  }

  function reference() {
    const value = `trigger-test-${randomUUID()}`
    references.push(value)
    return value
  }

  test('entries that do not sum to zero are refused at commit', async ({ assert }) => {
    const { db } = await services()
    const ref = reference()

    await assert.rejects(
      () => committed((run) => insertRaw(run, ref, [5000n, -4999n])),
      /does not balance: its entries sum to 1 µSTX/
    )

    assert.isNull(await db.from('ledger_transactions').where('reference', ref).first())
  })

  test('an account that may not go negative is refused below zero at commit, whoever writes the entries', async ({
    assert,
  }) => {
    const { db } = await services()
    const ref = reference()

    await assert.rejects(
      () =>
        committed(async (run) => {
          await run(
            `INSERT INTO ledger_accounts (name, kind, may_go_negative)
             VALUES ('platform:payouts_in_flight', 'payouts_in_flight', false) ON CONFLICT DO NOTHING`
          )
          const id = await insertRaw(run, ref, [-1_000n])
          await run(
            `INSERT INTO ledger_entries (transaction_id, account, amount_microstx)
             VALUES (?, 'platform:payouts_in_flight', 1000)`,
            [id]
          )
        }),
      /ledger account platform:payouts_in_flight may not go negative: its debits would exceed its credits by 1000 µSTX/
    )

    assert.isNull(await db.from('ledger_transactions').where('reference', ref).first())
  })

  test('entries may be unbalanced between statements as long as they balance at commit', async ({
    assert,
  }) => {
    const { db } = await services()
    const ref = reference()

    const id = await committed((run) => insertRaw(run, ref, [5000n, -4000n, -1000n]))

    const rows = await db.from('ledger_entries').where('transaction_id', id)
    assert.lengthOf(rows, 3)
    assert.equal(
      rows.reduce((sum, row) => sum + BigInt(row.amount_microstx), 0n),
      0n
    )
  })
})

/**
 * A confirmed feed payment row as the paywall leaves it (claimed, handed to
 * the node, confirmed), or as an attacker's redemption would (`broadcastAt: null`).
 */
async function paymentRow(amount: bigint, options: { broadcastAt?: Date | null } = {}) {
  const { db } = await services()
  const feed = await db.from('feeds').where('slug', 'whale-alerts').select('id').firstOrFail()
  const txid = randomUUID().replaceAll('-', '').repeat(2)
  await db.table('payments').insert({
    txid,
    purpose: 'feed',
    feed_id: feed.id,
    resource: 'GET /feeds/test',
    payer: 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
    amount_microstx: amount.toString(),
    network: 'stacks:2147483648',
    raw_tx: Buffer.from([1]),
    status: 'confirmed',
    broadcast_at: options.broadcastAt === undefined ? new Date() : options.broadcastAt,
  })
  return txid
}

test.group('Auditing the ledger', (group) => {
  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const ace = await app.container.make('ace')
    ace.ui.switchMode('raw')
    return () => ace.ui.switchMode('normal')
  })

  async function runCommand() {
    const ace = await app.container.make('ace')
    const command = await ace.create(LedgerAuditCommand, [])
    await command.exec()
    return command
  }

  /** A confirmed payment of `amount` for a feed of the provider (null: a built-in feed), posted. */
  async function postPayment(amount: bigint, providerId: string | null) {
    const { ledger } = await services()
    await post({
      kind: 'payment',
      reference: await paymentRow(amount),
      entries: ledger.paymentEntries({ amount, providerId }),
    })
  }

  test('a ledger of balanced postings passes the audit', async ({ assert }) => {
    const provider = await createProviderRow()
    const audit = await app.container.make(LedgerAudit)
    const before = await audit.run()

    await postPayment(5000n, provider.id)
    await postPayment(5000n, null)
    const after = await audit.run()
    const command = await runCommand()

    assert.deepEqual(after.discrepancies, [])
    assert.equal(after.transactions - before.transactions, 2)
    assert.equal(after.entries - before.entries, 5)
    command.assertSucceeded()
    command.assertLogMatches(
      new RegExp(`ledger balanced: ${after.transactions} transactions, ${after.entries} entries`)
    )
  })

  test('a planted imbalance is reported and fails the command', async ({ assert }) => {
    const { db } = await services()
    // Inside the global transaction, which never commits, the deferred balance trigger never runs.
    const id = await insertRaw(through(db), 'planted', [5000n, -4990n])
    const empty = await db.rawQuery(
      `INSERT INTO ledger_transactions (kind, reference) VALUES ('test', 'empty') RETURNING id`
    )
    const audit = await app.container.make(LedgerAudit)

    const report = await audit.run()
    const command = await runCommand()

    assert.sameMembers(report.discrepancies, [
      `transaction ${id} (test "planted") sums to 10 µSTX, not 0`,
      `transaction ${empty.rows[0].id} (test "empty") has no entries`,
      'all entries sum to 10 µSTX, not 0',
    ])
    command.assertFailed()
    assert.equal(command.exitCode, 1)
    const logged = command.logger.getLogs().map((log) => log.message)
    for (const discrepancy of report.discrepancies) {
      assert.isTrue(
        logged.some((line) => line.includes(discrepancy)),
        discrepancy
      )
    }
  })

  test("a provider's cached balance that drifts from its ledger account is reported", async ({
    assert,
  }) => {
    const { db } = await services()
    const provider = await createProviderRow('drifting')
    await postPayment(10_000n, provider.id)
    await db.from('providers').where('id', provider.id).update({ pending_revenue_microstx: 1 })

    const audit = await app.container.make(LedgerAudit)
    const report = await audit.run()

    assert.deepEqual(report.discrepancies, [
      'provider drifting: cached pending/earned/withdrawn 1/9700/0 µSTX, ledger says 9700/9700/0',
    ])
  })

  test("the totals an account's limit is checked against that drift from its entries are reported", async ({
    assert,
  }) => {
    const { db } = await services()
    const provider = await createProviderRow('kept')
    await postPayment(10_000n, provider.id)
    const account = accounts.providerPending(provider.id).name
    await db.from('ledger_accounts').where('name', account).update({ credits_microstx: 1 })

    const report = await app.container.make(LedgerAudit).then((audit) => audit.run())

    assert.deepEqual(report.discrepancies, [
      `account ${account}: kept debits/credits 0/1 µSTX, entries say 0/9700`,
    ])
  })

  test('a credit for a transfer this service did not broadcast, or for no payment at all, is reported', async ({
    assert,
  }) => {
    const { ledger } = await services()
    const provider = await createProviderRow('attacker')
    const entries = ledger.paymentEntries({ amount: 500_000_000n, providerId: provider.id })
    const redeemedTopUp = await paymentRow(500_000_000n, { broadcastAt: null })
    await post({ kind: 'payment', reference: redeemedTopUp, entries })
    await post({ kind: 'payment', reference: 'f'.repeat(64), entries })
    const underPosted = await paymentRow(10_000n)
    await post({
      kind: 'payment',
      reference: underPosted,
      entries: ledger.paymentEntries({ amount: 1_000n, providerId: null }),
    })
    const uncredited = await paymentRow(5_000n)

    const audit = await app.container.make(LedgerAudit)
    const report = await audit.run()

    assert.sameMembers(report.discrepancies, [
      `payment posting "${redeemedTopUp}" credits a transfer with no record of this service broadcasting it`,
      `payment posting "${'f'.repeat(64)}" has no payment this service claimed`,
      `payment posting "${underPosted}" received 1000 µSTX, the payment is of 10000 µSTX`,
      `confirmed payment 0x${uncredited} has no ledger posting`,
    ])
  })
})

/**
 * Committed transactions on separate connections, as requests and jobs run
 * them: a posting waits for another's locks, in one order, never deadlocks.
 */
test.group('Postings of one provider running at once', (group) => {
  group.each.teardown(() => emptyMarketplace())

  /** Resolves once some transaction waits for a lock another holds. */
  async function someoneWaits(db: Database) {
    for (let tries = 0; tries < 500; tries++) {
      const { rows } = await db.rawQuery(
        'SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted'
      )
      if (rows[0].waiting > 0) return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error('no transaction ever waited for a lock')
  }

  /**
   * A withdrawal request (its provider locked first, then the debit) while
   * `other` posts for the same provider and reaches the provider's row after
   * the request locked it: both commit.
   */
  async function withdrawalBeside(
    other: (ledger: Ledger, providerId: string) => Posting | Promise<Posting>
  ) {
    const { db, ledger } = await services()
    const provider = await createProviderRow()
    await db.transaction((trx) =>
      ledger.post(trx, {
        kind: 'opening_balance',
        reference: provider.id,
        entries: [
          { account: accounts.platformWallet, amount: 1_000n },
          { account: accounts.providerPending(provider.id), amount: -1_000n },
        ],
      })
    )
    const withdrawal = {
      id: randomUUID(),
      source: accounts.providerPending(provider.id),
      amount: 300n,
    }
    const posting = await other(ledger, provider.id)

    // A failure before the commit must not leave the provider locked: the
    // teardown's TRUNCATE would wait for it for ever.
    const request = await db.transaction()
    let beside: Promise<unknown> = Promise.resolve()
    let debited: boolean
    try {
      await lockedProvider(provider, request)
      beside = db.transaction((trx) => ledger.post(trx, posting))
      await someoneWaits(db)
      debited = await ledger.debitForWithdrawal(request, withdrawal)
      await request.commit()
    } finally {
      if (!request.isCompleted) await request.rollback()
      // `beside` rolls itself back on failure; it finishes once the lock is gone.
      await beside
    }

    return { debited, provider: await Provider.findOrFail(provider.id), ledger }
  }

  test('a payment confirmed while a withdrawal is requested', async ({ assert }) => {
    const { debited, provider, ledger } = await withdrawalBeside((books, providerId) => ({
      kind: 'payment',
      reference: 'c'.repeat(64),
      entries: books.paymentEntries({ amount: 1_000n, providerId }),
    }))

    assert.isTrue(debited)
    assert.equal(provider.pendingRevenueMicrostx, 1_000n + 970n - 300n)
    assert.equal(
      await ledger.balanceOf(accounts.providerPending(provider.id)),
      -provider.pendingRevenueMicrostx
    )
  }).timeout(30_000)

  test('an earlier withdrawal reversed while another is requested', async ({ assert }) => {
    const earlier = randomUUID()
    const { debited, provider, ledger } = await withdrawalBeside(async (books, providerId) => {
      const { db } = await services()
      await db.transaction((trx) =>
        books.debitForWithdrawal(trx, {
          id: earlier,
          source: accounts.providerPending(providerId),
          amount: 200n,
        })
      )
      return {
        kind: 'withdrawal_reversal',
        reference: earlier,
        entries: [
          { account: accounts.payoutsInFlight, amount: 200n },
          { account: accounts.providerPending(providerId), amount: -200n },
        ],
      }
    })

    assert.isTrue(debited)
    assert.equal(await ledger.balanceOf(accounts.payoutsInFlight), -300n)
    assert.equal(provider.pendingRevenueMicrostx, 1_000n - 300n)
  }).timeout(30_000)
})
