import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ChainConfig } from '#chain/define_config'
import { ListWithdrawals } from '#withdrawals/actions/list_withdrawals'
import { ShowWithdrawal } from '#withdrawals/actions/show_withdrawal'
import { listWithdrawalsValidator } from '#withdrawals/validators'
import { withdrawalsCsv, withdrawalView } from '#withdrawals/withdrawal_view'

/** The owner's withdrawal history: the list (JSON, or CSV for `Accept: text/csv`) and one withdrawal. */
@inject()
export default class WithdrawalHistoryController {
  constructor(
    private listWithdrawals: ListWithdrawals,
    private showWithdrawal: ShowWithdrawal,
    private chain: ChainConfig
  ) {}

  async show({ auth, params }: HttpContext) {
    const { withdrawal, history } = await this.showWithdrawal.execute(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      String(params.withdrawal_id)
    )
    return {
      withdrawal: {
        ...withdrawalView(withdrawal, this.chain),
        history: history.map((event) => ({
          from_status: event.fromStatus,
          to_status: event.toStatus,
          detail: event.detail,
          at: event.at.toISOString(),
        })),
      },
    }
  }

  async handle({ auth, params, request, response }: HttpContext) {
    const { limit } = await request.validateUsing(listWithdrawalsValidator, { data: request.qs() })
    const withdrawals = await this.listWithdrawals.execute(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      limit
    )
    const views = withdrawals.map((withdrawal) => withdrawalView(withdrawal, this.chain))
    if (request.accepts(['application/json', 'text/csv']) === 'text/csv') {
      response.header('content-type', 'text/csv; charset=utf-8')
      response.header('content-disposition', 'attachment; filename="withdrawals.csv"')
      return response.send(withdrawalsCsv(views))
    }
    return { withdrawals: views }
  }
}
