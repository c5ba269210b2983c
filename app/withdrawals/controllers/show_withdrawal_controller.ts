import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ChainConfig } from '#chain/define_config'
import { ShowWithdrawal } from '#withdrawals/actions/show_withdrawal'
import { withdrawalView } from '#withdrawals/withdrawal_view'

/** GET /providers/id/:id/withdrawals/:withdrawal_id: one withdrawal with its transition history. */
@inject()
export default class ShowWithdrawalController {
  constructor(
    private showWithdrawal: ShowWithdrawal,
    private chain: ChainConfig
  ) {}

  async handle({ ownedProvider, params }: HttpContext) {
    const { withdrawal, history } = await this.showWithdrawal.execute(
      ownedProvider,
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
}
