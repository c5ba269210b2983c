import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Database } from '@adonisjs/lucid/database'
import { creditBalanceOf, creditBalanceView } from '#credit/credit_balance'

/** GET /credit/balance: the wallet's credit. */
@inject()
export default class ShowCreditBalanceController {
  constructor(private db: Database) {}

  async handle({ creditWallet }: HttpContext) {
    const balance = await creditBalanceOf(this.db.connection(), creditWallet)
    return creditBalanceView(creditWallet, balance)
  }
}
