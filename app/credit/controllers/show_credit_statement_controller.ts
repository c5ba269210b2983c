import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ShowCreditStatement } from '#credit/actions/show_credit_statement'
import { statementValidator } from '#credit/statement_validator'
import { statementView } from '#credit/statement_view'

/** GET /credit/statement: the wallet's balance and its movements, newest first, a page at a time. */
@inject()
export default class ShowCreditStatementController {
  constructor(private showStatement: ShowCreditStatement) {}

  async handle({ creditWallet, request }: HttpContext) {
    const input = await request.validateUsing(statementValidator, { data: request.qs() })
    const statement = await this.showStatement.execute(creditWallet, input)
    return statementView(creditWallet, statement)
  }
}
