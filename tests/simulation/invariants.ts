import { createHash } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { type Select, type TextRow, selectTogether } from '#core/select_together'
import { LEDGER_AUDIT_CHECKS, LedgerAudit } from '#ledger/ledger_audit'
import { WithdrawalChainAudit } from '#withdrawals/withdrawal_chain_audit'
import { splitPayment } from '#ledger/split'
import type { Microstx } from '#ledger/money'
import type { Seller } from '#tests/simulation/cast'

/** A paid answer (200 with data, or a top-up's credit) the service sent, as the buyer received it. */
export interface ServedResponse {
  txid: string
  body: string
  /** md5 of the body, as PostgreSQL's `md5()` gives it for the stored answer. */
  bodyMd5: string
  step: number
  /** What the payment bought: a feed's answer or credit. */
  purpose: 'feed' | 'credit_top_up'
}

export function servedResponse(
  txid: string,
  body: string,
  step: number,
  purpose: ServedResponse['purpose']
): ServedResponse {
  return { txid, body, bodyMd5: md5(body), step, purpose }
}

/** A call paid from credit that the service answered with data (200), as the buyer received it. */
export interface ServedCreditCall {
  /** The wallet of the token the call presented: the one whose credit pays. */
  payer: string
  /** Its payment-identifier, or '' for none. */
  identifier: string
  body: string
  bodyMd5: string
  step: number
}

export function servedCreditCall(
  call: Omit<ServedCreditCall, 'bodyMd5' | 'identifier'> & { identifier?: string }
): ServedCreditCall {
  return { ...call, identifier: call.identifier ?? '', bodyMd5: md5(call.body) }
}

function md5(body: string) {
  return createHash('md5').update(body).digest('hex')
}

/** What the run saw from outside the service, which the invariants hold it to. */
export interface Observations {
  served: ServedResponse[]
  /** Credit calls served with data, answers lost in a crash included. */
  creditCalls: ServedCreditCall[]
  /** `payer identifier` of every credit call sent with a payment-identifier, served or not. */
  creditIdentifiers: Set<string>
  /** Credit calls at once with one payment-identifier, some served and some refused. */
  refusedRetries: string[]
  /** Answers with status 500: the service failed on its own side. */
  internalErrors: string[]
}

/**
 * What the invariants hold the database to besides itself: the cast, what the
 * run observed and what the sellers' wallets hold on the chain — as they were
 * right after the check's snapshot was taken (`contextNow`), while the next
 * step already runs.
 */
export interface Context {
  /** The cast: their provider ids and wallets do not change during a run. */
  sellers: Seller[]
  observed: Observations
  /** Each seller wallet's balance on the chain, by address. */
  onChain: Map<string, bigint>
}

/** What `context` needs of the chain. */
interface Balances {
  balanceOf(address: string): bigint
}

/** A copy of what the run observed, and the sellers' balances on `chain`, now. */
export function contextNow(chain: Balances, sellers: Seller[], observed: Observations): Context {
  const wallets = sellers.flatMap((seller) => seller.wallets)
  return {
    sellers,
    observed: {
      served: [...observed.served],
      creditCalls: [...observed.creditCalls],
      creditIdentifiers: new Set(observed.creditIdentifiers),
      refusedRetries: [...observed.refusedRetries],
      internalErrors: [...observed.internalErrors],
    },
    onChain: new Map(wallets.map((wallet) => [wallet.address, chain.balanceOf(wallet.address)])),
  }
}

/**
 * One invariant: the SELECTs it reads (all invariants' together make one
 * statement, hence one snapshot) and the judgement on their rows, one line
 * per violation.
 */
interface Invariant {
  reads(context: Context): Select[]
  judge(rows: TextRow[][], context: Context): string[]
}

/**
 * Checked after every step. Money amounts are summed in bigint µSTX: nothing
 * here rounds.
 */
export const INVARIANTS: Record<string, Invariant> = {
  'ledger:audit passes (every ledger group sums to zero, cached balances, credits, withdrawal postings, nonces)':
    {
      reads: () => LEDGER_AUDIT_CHECKS.map((check) => check.select),
      judge: (rows) =>
        LEDGER_AUDIT_CHECKS.flatMap((check, index) => rows[index].map(check.describe)),
    },

  'no negative balance': {
    reads: () => [
      {
        sql: `SELECT handle FROM providers
               WHERE pending_revenue_microstx < 0 OR lifetime_earned_microstx < 0 OR total_withdrawn_microstx < 0`,
      },
      {
        sql: `SELECT account, sum(amount_microstx) AS balance FROM ledger_entries
               WHERE account LIKE 'provider:%:pending' OR account LIKE 'credit:%'
                  OR account = 'platform:payouts_in_flight'
               GROUP BY account HAVING sum(amount_microstx) > 0`,
      },
      {
        // The totals the database's never-negative check reads (docs/credit.md#the-model).
        sql: `SELECT name, debits_microstx, credits_microstx FROM ledger_accounts
               WHERE kind = 'buyer_credit' AND debits_microstx > credits_microstx`,
      },
    ],
    judge: ([providers, accounts, credit]) => [
      ...providers.map((row) => `provider ${row.handle} has a negative balance`),
      ...accounts.map(
        (row) => `ledger account ${row.account} owes ${row.balance} µSTX the wrong way`
      ),
      ...credit.map(
        (row) =>
          `${row.name} is below zero: debits ${row.debits_microstx} µSTX, credits ${row.credits_microstx}`
      ),
    ],
  },

  "each provider's credits are exactly 97 % of its confirmed payments and credit calls": {
    reads: ({ sellers }) => [
      {
        sql: `SELECT provider_id, amount_microstx, count(*) AS calls
                FROM (SELECT f.provider_id, p.amount_microstx
                        FROM payments p JOIN feeds f ON f.id = p.feed_id
                       WHERE p.purpose = 'feed' AND p.status = 'confirmed'
                      UNION ALL
                      SELECT f.provider_id, c.price_microstx
                        FROM credit_calls c JOIN feeds f ON f.id = c.feed_id) paid
               GROUP BY provider_id, amount_microstx`,
      },
      cachedTotals(sellers),
      ledgerBalances(['platform:fees', 'platform:revenue']),
    ],
    judge: ([payments, earnedRows, platformRows], { sellers }) => {
      const earned = byId(earnedRows, 'lifetime_earned_microstx')
      const platform = balancesOf(platformRows, ['platform:fees', 'platform:revenue'])
      const expected = new Map<string | null, { share: bigint; fee: bigint; gross: bigint }>()
      for (const row of payments) {
        const amount = BigInt(String(row.amount_microstx)) as Microstx
        const calls = BigInt(String(row.calls))
        const { fee, providerShare } = splitPayment(amount)
        const providerId = row.provider_id as string | null
        const sums = expected.get(providerId) ?? { share: 0n, fee: 0n, gross: 0n }
        sums.share += providerShare * calls
        sums.fee += fee * calls
        sums.gross += amount * calls
        expected.set(providerId, sums)
      }
      const violations: string[] = []
      for (const seller of sellers) {
        const share = expected.get(seller.providerId)?.share ?? 0n
        if (earned.get(seller.providerId) !== share) {
          violations.push(
            `${seller.handle} earned ${earned.get(seller.providerId)} µSTX, 97 % of its confirmed payments and credit calls is ${share}`
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
  },

  'withdrawn equals the withdrawals debited; paid out equals the confirmed ones, on chain too': {
    reads: ({ sellers }) => [
      {
        sql: `SELECT provider_id, status, destination_address, sum(amount_microstx) AS amount_microstx
                FROM withdrawals WHERE provider_id = ANY(?::uuid[])
               GROUP BY provider_id, status, destination_address`,
        bindings: [sellers.map((seller) => seller.providerId)],
      },
      cachedTotals(sellers),
      {
        sql: `SELECT paid_out.total AS paid_out, confirmed.total AS confirmed
                FROM (SELECT coalesce(sum(e.amount_microstx), 0) AS total FROM ledger_entries e
                        JOIN ledger_transactions t ON t.id = e.transaction_id
                       WHERE t.kind = 'withdrawal_payout' AND e.amount_microstx > 0) paid_out,
                     (SELECT coalesce(sum(amount_microstx), 0) AS total
                        FROM withdrawals WHERE status = 'confirmed') confirmed
               WHERE paid_out.total <> confirmed.total`,
      },
    ],
    judge: ([withdrawals, withdrawnRows, payouts], { sellers, onChain }) => {
      const withdrawn = byId(withdrawnRows, 'total_withdrawn_microstx')
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
          const inFlight = sum(
            to.filter((row) => ['pending', 'broadcast'].includes(String(row.status)))
          )
          const received = onChain.get(wallet.address) ?? 0n
          if (received < confirmedTo || received > confirmedTo + inFlight) {
            violations.push(
              `${wallet.address} received ${received} µSTX on chain; confirmed withdrawals to it ${confirmedTo}, in flight ${inFlight}`
            )
          }
        }
      }
      for (const row of payouts) {
        violations.push(
          `payouts posted ${row.paid_out} µSTX, confirmed withdrawals ${row.confirmed}`
        )
      }
      return violations
    },
  },

  'no txid redeemed twice (as a feed payment or a top-up)': {
    reads: () => [
      {
        sql: `SELECT reference FROM ledger_transactions WHERE kind IN ('payment', 'credit_top_up')
               GROUP BY reference HAVING count(*) > 1`,
      },
    ],
    judge: ([twice], { observed }) => {
      const violations = twice.map((row) => `transfer 0x${row.reference} is posted twice`)
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
  },

  'every served paid response matches one confirmed or pending payment (a top-up: confirmed)': {
    // Compared in the database, by digest: only the answers that differ come back.
    reads: ({ observed }) => [
      {
        sql: `SELECT served.txid, served.step, served.purpose AS bought, p.purpose, p.status
                FROM jsonb_to_recordset(?::jsonb) AS served(txid text, body_md5 text, step int, purpose text)
                LEFT JOIN payments p ON p.txid = served.txid
               WHERE p.txid IS NULL OR p.purpose <> served.purpose
                  OR p.status NOT IN ('confirmed', 'broadcast')
                  OR (p.purpose = 'credit_top_up' AND p.status <> 'confirmed')
                  OR md5(p.response) IS DISTINCT FROM served.body_md5
               ORDER BY served.step`,
        // The keys are the recordset's column names: a key spelled otherwise would read as NULL.
        bindings: [
          JSON.stringify(
            observed.served.map(({ txid, bodyMd5, step, purpose }) => ({
              txid,
              body_md5: bodyMd5,
              step,
              purpose,
            }))
          ),
        ],
      },
    ],
    judge: ([differing]) =>
      differing.map((row) => {
        const what = `step ${row.step} served ${row.bought === 'feed' ? 'data' : 'credit'} for 0x${row.txid}`
        if (row.purpose === null) return `${what}, unknown`
        if (row.purpose !== row.bought) return `${what}, a ${row.purpose} payment`
        const settled =
          row.status === 'confirmed' || (row.bought === 'feed' && row.status === 'broadcast')
        if (!settled) return `${what}, a payment now ${row.status}`
        return `step ${row.step} served other bytes than payment 0x${row.txid} stored`
      }),
  },

  'credit is never spent twice: every served credit call is one stored call, and a retry by payment-identifier (at once too) gets its bytes':
    {
      // Compared in the database, by digest. A call with an identifier is that wallet's one
      // call with it (unique), holding the bytes served; calls without one are as many as
      // were served, byte for byte; no call has an identifier the run never sent. Each call's
      // one credit_call posting is ledger:audit's (every call posted, every posting a call).
      reads: ({ observed }) => {
        // The keys are the recordset's column names: a key spelled otherwise would read as NULL.
        const served = [
          JSON.stringify(
            observed.creditCalls.map(({ payer, identifier, bodyMd5, step }) => ({
              payer,
              identifier,
              body_md5: bodyMd5,
              step,
            }))
          ),
        ]
        const servedRows = `jsonb_to_recordset(?::jsonb) AS s(payer text, identifier text, body_md5 text, step int)`
        return [
          {
            sql: `SELECT s.step, s.payer, s.identifier, c.id
                    FROM ${servedRows}
                    LEFT JOIN credit_calls c ON c.payer = s.payer AND c.payment_identifier = s.identifier
                   WHERE s.identifier <> '' AND md5(c.response) IS DISTINCT FROM s.body_md5
                   ORDER BY s.step`,
            bindings: served,
          },
          {
            sql: `SELECT coalesce(s.payer, c.payer) AS payer, s.step, coalesce(s.served, 0) AS served,
                         coalesce(c.stored, 0) AS stored
                    FROM (SELECT payer, body_md5, count(*) AS served, min(step) AS step FROM ${servedRows}
                           WHERE identifier = '' GROUP BY payer, body_md5) s
                    FULL JOIN (SELECT payer, md5(response) AS body_md5, count(*) AS stored FROM credit_calls
                                WHERE payment_identifier IS NULL GROUP BY payer, md5(response)) c
                      ON c.payer = s.payer AND c.body_md5 = s.body_md5
                   WHERE s.served IS DISTINCT FROM c.stored`,
            bindings: served,
          },
          {
            sql: `SELECT id, payer, payment_identifier FROM credit_calls
                   WHERE payment_identifier IS NOT NULL
                     AND payer || ' ' || payment_identifier <> ALL(?::text[])`,
            bindings: [[...observed.creditIdentifiers]],
          },
        ]
      },
      judge: ([identified, counted, unsent], { observed }) => {
        const violations = [
          ...observed.refusedRetries,
          ...identified.map((row) =>
            row.id === null
              ? `step ${row.step} served ${row.payer} a credit call with identifier ${row.identifier} that is not stored`
              : `step ${row.step} served ${row.payer} other bytes than its credit call ${row.id} (identifier ${row.identifier}) stored`
          ),
          ...counted.map(
            (row) =>
              `${row.payer} was served ${row.served} credit call(s) without an identifier${row.step === null ? '' : ` (from step ${row.step})`} with the bytes of ${row.stored} stored call(s)`
          ),
          ...unsent.map(
            (row) =>
              `credit call ${row.id} of ${row.payer} has identifier ${row.payment_identifier}, which the run never sent`
          ),
        ]
        const firstBody = new Map<string, string>()
        for (const call of observed.creditCalls) {
          if (call.identifier === '') continue
          const key = `${call.payer} ${call.identifier}`
          const first = firstBody.get(key)
          if (first === undefined) firstBody.set(key, call.body)
          else if (first !== call.body) {
            violations.push(
              `${call.payer}'s identifier ${call.identifier} was answered with two different bodies (step ${call.step})`
            )
          }
        }
        return violations
      },
    },

  "credit is spent only by its own wallet's tokens, within the cap and the price per call the wallet signed":
    {
      reads: () => [
        {
          sql: `SELECT t.id, t.address, t.spent_microstx, t.spend_cap_microstx, t.max_price_microstx,
                       coalesce(sum(c.price_microstx), 0) AS calls, max(c.price_microstx) AS dearest,
                       count(c.id) FILTER (WHERE c.payer <> t.address) AS foreign_calls
                  FROM credit_tokens t LEFT JOIN credit_calls c ON c.token_id = t.id
                 GROUP BY t.id
                HAVING t.spent_microstx > t.spend_cap_microstx
                    OR t.spent_microstx <> coalesce(sum(c.price_microstx), 0)
                    OR max(c.price_microstx) > t.max_price_microstx
                    OR count(c.id) FILTER (WHERE c.payer <> t.address) > 0`,
        },
        {
          // What a credit_call posting debits is its payer's credit, and nothing else.
          sql: `SELECT t.reference, e.account, e.amount_microstx, c.payer
                  FROM ledger_transactions t
                  JOIN ledger_entries e ON e.transaction_id = t.id
                  LEFT JOIN credit_calls c ON c.id::text = t.reference
                 WHERE t.kind = 'credit_call' AND e.amount_microstx > 0
                   AND e.account IS DISTINCT FROM 'credit:' || c.payer`,
        },
      ],
      judge: ([tokens, postings]) => [
        ...tokens.map(
          (row) =>
            `credit token ${row.id} of ${row.address}: spent ${row.spent_microstx} µSTX of a ${row.spend_cap_microstx} cap, ` +
            `its calls cost ${row.calls} (dearest ${row.dearest ?? 'none'}, at most ${row.max_price_microstx} signed), ` +
            `${row.foreign_calls} call(s) paid by another wallet`
        ),
        ...postings.map(
          (row) =>
            `credit_call posting ${row.reference} debits ${row.amount_microstx} µSTX from ${row.account}, its call's payer is ${row.payer ?? 'none'}`
        ),
      ],
    },

  'no request failed on the service side (500)': {
    reads: () => [],
    judge: (_rows, { observed }) => observed.internalErrors,
  },
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

/** The cached totals of each seller's provider row. */
function cachedTotals(sellers: Seller[]): Select {
  return {
    sql: `SELECT id, lifetime_earned_microstx, total_withdrawn_microstx FROM providers
           WHERE id = ANY(?::uuid[])`,
    bindings: [sellers.map((seller) => seller.providerId)],
  }
}

function byId(rows: TextRow[], column: string): Map<string, bigint> {
  return new Map(rows.map((row) => [String(row.id), BigInt(String(row[column]))]))
}

function sum(rows: TextRow[]) {
  return rows.reduce((total, row) => total + BigInt(String(row.amount_microstx)), 0n)
}

/** Ledger balances (debits positive) of the named accounts. */
function ledgerBalances(names: string[]): Select {
  return {
    sql: `SELECT account, sum(amount_microstx) AS balance FROM ledger_entries
           WHERE account = ANY(?) GROUP BY account`,
    bindings: [names],
  }
}

/** Ledger balances (debits positive) of the named accounts, read now. */
export async function readLedgerBalances(names: string[]) {
  const [rows] = await selectTogether(db.connection(), [ledgerBalances(names)])
  return balancesOf(rows, names)
}

function balancesOf(rows: TextRow[], names: string[]): Record<string, bigint> {
  const balances = Object.fromEntries(names.map((name) => [name, 0n]))
  for (const row of rows) balances[String(row.account)] = BigInt(String(row.balance))
  return balances
}
