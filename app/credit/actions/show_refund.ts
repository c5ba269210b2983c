import { inject } from '@adonisjs/core'
import { isUuid } from '#core/uuid'
import { E_REFUND_NOT_FOUND } from '#credit/refund_exceptions'
import { WithdrawalRecords } from '#withdrawals/withdrawal_records'

/** GET /credit/refunds/:id: one refund of the wallet's own. */
@inject()
export class ShowRefund {
  constructor(private records: WithdrawalRecords) {}

  async execute(wallet: string, id: string) {
    const refund = isUuid(id) ? await this.records.find(id) : null
    if (!refund || refund.creditAddress !== wallet) throw new E_REFUND_NOT_FOUND([id])
    return refund
  }
}
