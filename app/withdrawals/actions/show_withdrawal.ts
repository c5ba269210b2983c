import { inject } from '@adonisjs/core'
import { ownedProvider } from '#provider_accounts/provider_access'
import { E_WITHDRAWAL_NOT_FOUND } from '#withdrawals/exceptions'
import { WithdrawalRecords } from '#withdrawals/withdrawal_records'
import { isUuid } from '#core/uuid'

/** GET /providers/id/:id/withdrawals/:withdrawal_id: one withdrawal of the owner's, with its history. */
@inject()
export class ShowWithdrawal {
  constructor(private records: WithdrawalRecords) {}

  async execute(providerId: string, ownerWallet: string, withdrawalId: string) {
    const provider = await ownedProvider(providerId, ownerWallet)
    const withdrawal = isUuid(withdrawalId) ? await this.records.find(withdrawalId) : null
    if (!withdrawal || withdrawal.providerId !== provider.id) {
      throw new E_WITHDRAWAL_NOT_FOUND([withdrawalId])
    }
    return { withdrawal, history: await this.records.historyOf(withdrawal.id) }
  }
}
