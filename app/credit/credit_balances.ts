import { inject } from '@adonisjs/core'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import type { Microstx } from '#ledger/money'

/** A wallet's credit: what the platform owes it, the negated balance of `credit:<address>`. */
@inject()
export class CreditBalances {
  constructor(private ledger: Ledger) {}

  async of(address: string, client?: QueryClientContract): Promise<Microstx> {
    return -(await this.ledger.balanceOf(accounts.buyerCredit(address), client))
  }
}
