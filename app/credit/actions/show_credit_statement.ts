import { inject } from '@adonisjs/core'
import { CreditBalances } from '#credit/credit_balances'
import { CreditStatement } from '#credit/credit_statement'

/** Statement lines a page holds unless `limit` says otherwise (at most 100, the validator's). */
const DEFAULT_LIMIT = 20

/** GET /credit/statement: the wallet's balance and one page of its statement. */
@inject()
export class ShowCreditStatement {
  constructor(
    private balances: CreditBalances,
    private statement: CreditStatement
  ) {}

  async execute(wallet: string, input: { cursor?: bigint; limit?: number }) {
    const [balance, page] = await Promise.all([
      this.balances.of(wallet),
      this.statement.page(wallet, { before: input.cursor, size: input.limit ?? DEFAULT_LIMIT }),
    ])
    return { balance, ...page }
  }
}
