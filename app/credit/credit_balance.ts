import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { accounts } from '#ledger/accounts'
import { type Microstx, formatStx, parseMicrostx } from '#ledger/money'

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
  const row = await client
    .from('ledger_accounts')
    .where('name', accounts.buyerCredit(address).name)
    .select('credits_microstx', 'debits_microstx')
    .first()
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
