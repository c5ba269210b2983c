import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { LedgerAudit } from '#ledger/ledger_audit'
import { WithdrawalChainAudit } from '#withdrawals/withdrawal_chain_audit'
import { splitPayment } from '#ledger/split'
import type { Microstx } from '#ledger/money'
import type { Seller } from '#tests/simulation/cast'
import type { World } from '#tests/simulation/world'

/** A paid answer (200 with data) the service sent, as the buyer received it. */
export interface ServedResponse {
  txid: string
  body: string
  step: number
}

/** What the run saw from outside the service, which the invariants hold it to. */
export interface Observations {
  served: ServedResponse[]
  /** Answers with status 500: the service failed on its own side. */
  internalErrors: string[]
}

/** `ledger:audit`'s checks, on the snapshot every invariant reads. */
class LedgerAuditIn extends LedgerAudit {
  async discrepanciesIn(client: QueryClientContract) {
    const found: string[] = []
    for (const check of this.checks) found.push(...(await check(client)))
    return found
  }
}

type Invariant = (
  client: QueryClientContract,
  world: World,
  sellers: Seller[],
  observed: Observations
) => Promise<string[]>

/**
 * Checked after every step. Each returns one line per violation. Money
 * amounts are summed in bigint µSTX: nothing here rounds.
 */
export const INVARIANTS: Record<string, Invariant> = {
  'ledger:audit passes (every ledger group sums to zero, cached balances, credits, withdrawal postings, nonces)':
    (client) => new LedgerAuditIn(db).discrepanciesIn(client),

  'no negative balance': async (client) => {
    const providers = await client.rawQuery(
      `SELECT handle FROM providers
        WHERE pending_revenue_microstx < 0 OR lifetime_earned_microstx < 0 OR total_withdrawn_microstx < 0`
    )
    const accounts = await client.rawQuery(
      `SELECT account, sum(amount_microstx) AS balance FROM ledger_entries
        WHERE account LIKE 'provider:%:pending' OR account = 'platform:payouts_in_flight'
        GROUP BY account HAVING sum(amount_microstx) > 0`
    )
    return [
      ...providers.rows.map(
        (row: { handle: string }) => `provider ${row.handle} has a negative balance`
      ),
      ...accounts.rows.map(
        (row: { account: string; balance: string }) =>
          `ledger account ${row.account} owes ${row.balance} µSTX the wrong way`
      ),
    ]
  },

  "each provider's credits are exactly 97 % of its confirmed payments": async (
    client,
    _world,
    sellers
  ) => {
    const payments = await client.rawQuery(
      `SELECT f.provider_id, p.amount_microstx FROM payments p JOIN feeds f ON f.id = p.feed_id
        WHERE p.purpose = 'feed' AND p.status = 'confirmed'`
    )
    const earned = await cachedTotals(client, sellers, 'lifetime_earned_microstx')
    const platform = await ledgerBalances(client, ['platform:fees', 'platform:revenue'])
    const expected = new Map<string | null, { share: bigint; fee: bigint; gross: bigint }>()
    for (const row of payments.rows as { provider_id: string | null; amount_microstx: string }[]) {
      const amount = BigInt(row.amount_microstx) as Microstx
      const { fee, providerShare } = splitPayment(amount)
      const sums = expected.get(row.provider_id) ?? { share: 0n, fee: 0n, gross: 0n }
      sums.share += providerShare
      sums.fee += fee
      sums.gross += amount
      expected.set(row.provider_id, sums)
    }
    const violations: string[] = []
    for (const seller of sellers) {
      const share = expected.get(seller.providerId)?.share ?? 0n
      if (earned.get(seller.providerId) !== share) {
        violations.push(
          `${seller.handle} earned ${earned.get(seller.providerId)} µSTX, 97 % of its confirmed payments is ${share}`
        )
      }
    }
    const fees = [...expected.entries()]
      .filter(([providerId]) => providerId !== null)
      .reduce((total, [, sums]) => total + sums.fee, 0n)
    const builtin = expected.get(null)?.gross ?? 0n
    if (-platform['platform:fees'] !== fees) {
      violations.push(
        `platform:fees holds ${-platform['platform:fees']} µSTX, the 3 % fees sum to ${fees}`
      )
    }
    if (-platform['platform:revenue'] !== builtin) {
      violations.push(
        `platform:revenue holds ${-platform['platform:revenue']} µSTX, built-in feeds were paid ${builtin}`
      )
    }
    return violations
  },

  'withdrawn equals the withdrawals debited; paid out equals the confirmed ones, on chain too':
    async (client, world, sellers) => {
      const withdrawals = await client
        .from('withdrawals')
        .whereIn(
          'provider_id',
          sellers.map((seller) => seller.providerId)
        )
        .select('provider_id', 'status', 'amount_microstx', 'destination_address')
      const withdrawn = await cachedTotals(client, sellers, 'total_withdrawn_microstx')
      const paidOut = await client.rawQuery(
        `SELECT coalesce(sum(e.amount_microstx), 0) AS total FROM ledger_entries e
           JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE t.kind = 'withdrawal_payout' AND e.amount_microstx > 0`
      )
      const confirmed = await client.rawQuery(
        `SELECT coalesce(sum(amount_microstx), 0) AS total FROM withdrawals WHERE status = 'confirmed'`
      )
      const violations: string[] = []
      for (const seller of sellers) {
        const rows = withdrawals.filter((row) => row.provider_id === seller.providerId)
        const debited = sum(rows.filter((row) => row.status !== 'failed'))
        if (withdrawn.get(seller.providerId) !== debited) {
          violations.push(
            `${seller.handle}: total_withdrawn ${withdrawn.get(seller.providerId)} µSTX, its live withdrawals sum to ${debited}`
          )
        }
        for (const wallet of seller.wallets) {
          const to = rows.filter((row) => row.destination_address === wallet.address)
          const confirmedTo = sum(to.filter((row) => row.status === 'confirmed'))
          const inFlight = sum(to.filter((row) => ['pending', 'broadcast'].includes(row.status)))
          const received = world.devnet.balanceOf(wallet.address)
          if (received < confirmedTo || received > confirmedTo + inFlight) {
            violations.push(
              `${wallet.address} received ${received} µSTX on chain; confirmed withdrawals to it ${confirmedTo}, in flight ${inFlight}`
            )
          }
        }
      }
      if (BigInt(paidOut.rows[0].total) !== BigInt(confirmed.rows[0].total)) {
        violations.push(
          `payouts posted ${paidOut.rows[0].total} µSTX, confirmed withdrawals ${confirmed.rows[0].total}`
        )
      }
      return violations
    },

  'no txid redeemed twice': async (client, _world, _sellers, observed) => {
    const twice = await client.rawQuery(
      `SELECT reference FROM ledger_transactions WHERE kind = 'payment'
        GROUP BY reference HAVING count(*) > 1`
    )
    const violations = twice.rows.map(
      (row: { reference: string }) => `payment 0x${row.reference} is posted twice`
    )
    const firstBody = new Map<string, string>()
    for (const served of observed.served) {
      const first = firstBody.get(served.txid)
      if (first === undefined) firstBody.set(served.txid, served.body)
      else if (first !== served.body) {
        violations.push(`0x${served.txid} bought two different answers (step ${served.step})`)
      }
    }
    return violations
  },

  'no platform nonce used twice': async (client) => {
    const result = await client.rawQuery(
      `SELECT nonce FROM withdrawals WHERE nonce IS NOT NULL AND status <> 'failed'
        GROUP BY sender_address, nonce HAVING count(*) > 1`
    )
    return result.rows.map((row: { nonce: string }) => `platform nonce ${row.nonce} is used twice`)
  },

  'every served paid response matches one confirmed or pending payment': async (
    client,
    _world,
    _sellers,
    observed
  ) => {
    const violations: string[] = []
    const rows: { txid: string; purpose: string; status: string; response: string | null }[] =
      await client
        .from('payments')
        .whereIn('txid', [...new Set(observed.served.map((served) => served.txid))])
        .select('txid', 'purpose', 'status', 'response')
    const payments = new Map(rows.map((row) => [row.txid, row]))
    for (const served of observed.served) {
      const payment = payments.get(served.txid)
      if (!payment) violations.push(`step ${served.step} served data for 0x${served.txid}, unknown`)
      else if (payment.purpose !== 'feed' || !['confirmed', 'broadcast'].includes(payment.status)) {
        violations.push(
          `step ${served.step} served data for 0x${served.txid}, a ${payment.purpose} payment now ${payment.status}`
        )
      } else if (payment.response !== served.body) {
        violations.push(
          `step ${served.step} served other bytes than payment 0x${served.txid} stored`
        )
      }
    }
    return violations
  },

  'no request failed on the service side (500)': async (_client, _world, _sellers, observed) =>
    observed.internalErrors,
}

/**
 * Every invariant, violations in INVARIANTS' order. They read in one
 * REPEATABLE READ READ ONLY transaction, so all of them see one snapshot: the
 * confirmation watcher may still post between steps. Its one connection runs
 * one query at a time, so they run one after another.
 */
export async function checkInvariants(world: World, sellers: Seller[], observed: Observations) {
  const trx = await db.transaction()
  try {
    await trx.rawQuery('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY')
    const found: string[] = []
    for (const [name, invariant] of Object.entries(INVARIANTS)) {
      const violations = await invariant(trx, world, sellers, observed)
      found.push(...violations.map((violation) => `${name}: ${violation}`))
    }
    return found
  } finally {
    await trx.rollback()
  }
}

/**
 * What `node ace ledger:audit` runs: the ledger's own checks and the settled
 * withdrawals against the chain.
 */
export async function ledgerAuditFindings() {
  const audit = await app.container.make(LedgerAudit)
  const report = await audit.run()
  const chainAudit = await app.container.make(WithdrawalChainAudit)
  return [...report.discrepancies, ...(await chainAudit.run())]
}

/** A cached total of each seller's provider row, by provider id. */
async function cachedTotals(
  client: QueryClientContract,
  sellers: Seller[],
  column: 'lifetime_earned_microstx' | 'total_withdrawn_microstx'
): Promise<Map<string, bigint>> {
  const rows = await client
    .from('providers')
    .whereIn(
      'id',
      sellers.map((seller) => seller.providerId)
    )
    .select('id', column)
  return new Map(rows.map((row) => [row.id, BigInt(row[column])]))
}

function sum(rows: { amount_microstx: string }[]) {
  return rows.reduce((total, row) => total + BigInt(row.amount_microstx), 0n)
}

/** Ledger balances (debits positive) of the named accounts. */
export async function ledgerBalances(
  client: QueryClientContract,
  names: string[]
): Promise<Record<string, bigint>> {
  const result = await client
    .from('ledger_entries')
    .whereIn('account', names)
    .groupBy('account')
    .select('account')
    .sum('amount_microstx as balance')
  const balances = Object.fromEntries(names.map((name) => [name, 0n]))
  for (const row of result as { account: string; balance: string }[]) {
    balances[row.account] = BigInt(row.balance)
  }
  return balances
}
