import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { CreditBalances } from '#credit/credit_balances'
import { formatStx } from '#ledger/money'

/** GET /credit/balance: the wallet's credit. */
@inject()
export default class ShowCreditBalanceController {
  constructor(private balances: CreditBalances) {}

  async handle({ creditWallet }: HttpContext) {
    const balance = await this.balances.of(creditWallet)
    return {
      address: creditWallet,
      balance_microstx: balance.toString(),
      balance_stx: formatStx(balance),
    }
  }
}
