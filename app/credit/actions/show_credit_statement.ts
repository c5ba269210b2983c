import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { creditBalanceOf } from '#credit/credit_balance'
import { CreditStatement } from '#credit/credit_statement'

/** Statement lines a page holds unless `limit` says otherwise (at most 100, the validator's). */
const DEFAULT_LIMIT = 20

/** GET /credit/statement: the wallet's balance and one page of its statement. */
@inject()
export class ShowCreditStatement {
  constructor(
    private db: Database,
    private statement: CreditStatement
  ) {}

  async execute(wallet: string, input: { cursor?: bigint; limit?: number }) {
    const limit = input.limit ?? DEFAULT_LIMIT
    const [balance, page] = await Promise.all([
      creditBalanceOf(this.db.connection(), wallet),
      this.statement.page(wallet, { before: input.cursor, size: limit }),
    ])
    return { balance, limit, ...page }
  }
}
