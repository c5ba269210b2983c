import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ChainConfig } from '#chain/define_config'
import { ListWithdrawals } from '#withdrawals/actions/list_withdrawals'
import { listWithdrawalsValidator } from '#withdrawals/validators'
import { withdrawalsCsv, withdrawalView } from '#withdrawals/withdrawal_view'

/** GET /providers/id/:id/withdrawals: JSON, or CSV for `Accept: text/csv`. */
@inject()
export default class ListWithdrawalsController {
  constructor(
    private listWithdrawals: ListWithdrawals,
    private chain: ChainConfig
  ) {}

  async handle({ ownedProvider, request, response }: HttpContext) {
    const { limit } = await request.validateUsing(listWithdrawalsValidator, { data: request.qs() })
    const withdrawals = await this.listWithdrawals.execute(ownedProvider, limit)
    const views = withdrawals.map((withdrawal) => withdrawalView(withdrawal, this.chain))
    if (request.accepts(['application/json', 'text/csv']) === 'text/csv') {
      response.header('content-type', 'text/csv; charset=utf-8')
      response.header('content-disposition', 'attachment; filename="withdrawals.csv"')
      return response.send(withdrawalsCsv(views))
    }
    return { withdrawals: views }
  }
}
