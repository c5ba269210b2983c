import { inject } from '@adonisjs/core'
import type Provider from '#models/provider'
import { E_WITHDRAWAL_NOT_FOUND } from '#withdrawals/exceptions'
import { WithdrawalRecords } from '#withdrawals/withdrawal_records'
import { isUuid } from '#core/uuid'

/** GET /providers/id/:id/withdrawals/:withdrawal_id: one withdrawal of the owner's, with its history. */
@inject()
export class ShowWithdrawal {
  constructor(private records: WithdrawalRecords) {}

  async execute(provider: Provider, withdrawalId: string) {
    const withdrawal = isUuid(withdrawalId) ? await this.records.find(withdrawalId) : null
    if (!withdrawal || withdrawal.providerId !== provider.id) {
      throw new E_WITHDRAWAL_NOT_FOUND([withdrawalId])
    }
    return { withdrawal, history: await this.records.historyOf(withdrawal.id) }
  }
}
