import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ChainConfig } from '#chain/define_config'
import { RequestWithdrawal } from '#withdrawals/actions/request_withdrawal'
import { withdrawValidator } from '#withdrawals/validators'
import { withdrawalView } from '#withdrawals/withdrawal_view'
import { RequestLog } from '#core/request_log'

/** POST /providers/id/:id/withdraw: 201 with a new withdrawal, 200 with the original for a known key. */
@inject()
export default class RequestWithdrawalController {
  constructor(
    private requestWithdrawal: RequestWithdrawal,
    private chain: ChainConfig
  ) {}

  async handle(ctx: HttpContext) {
    const { ownedProvider, request, response } = ctx
    const input = await request.validateUsing(withdrawValidator)
    const { withdrawal, created } = await this.requestWithdrawal.execute({
      provider: ownedProvider,
      amount: BigInt(input.amount_microstx),
      destination: input.destination_address,
      idempotencyKey: input.idempotency_key.toLowerCase(),
    })
    // Its transitions and the jobs' lines name it as withdrawal_id too (WithdrawalLifecycle).
    new RequestLog(ctx).bind({ withdrawal_id: withdrawal.id })
    return response
      .status(created ? 201 : 200)
      .send({ withdrawal: withdrawalView(withdrawal, this.chain) })
  }
}
