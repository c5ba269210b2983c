import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { accounts } from '#ledger/accounts'
import { type Microstx, formatStx, parseMicrostx } from '#ledger/money'
import { prepared } from '#core/prepared'

/**
 * What the platform owes a wallet: its credit account's credits less its
 * debits, from the totals the ledger keeps on every account that may not go
 * negative (one row, however many calls it paid); 0 for a wallet that never
 * topped up. Read inside the posting's transaction, after the posting locked
 * the account, it is the balance that posting left.
 */
export async function creditBalanceOf(
  client: QueryClientContract,
  address: string
): Promise<Microstx> {
  const found = await prepared(
    client.rawQuery(
      'SELECT credits_microstx, debits_microstx FROM ledger_accounts WHERE name = ?',
      [accounts.buyerCredit(address).name]
    )
  )
  const row = found.rows[0]
  return row ? parseMicrostx(row.credits_microstx) - parseMicrostx(row.debits_microstx) : 0n
}

/** A wallet's credit as every answer shows it: µSTX as an integer, STX as a decimal string (docs/api.md). */
export function creditBalanceView(address: string, balance: Microstx) {
  return {
    address,
    balance_microstx: Number(balance),
    balance_stx: formatStx(balance),
  }
}
