import { inject } from '@adonisjs/core'
import { ownedProvider } from '#provider_accounts/provider_access'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import { WithdrawalRecords } from '#withdrawals/withdrawal_records'

/** GET /providers/id/:id/withdrawals: the owner's history, newest first, `limit` capped. */
@inject()
export class ListWithdrawals {
  constructor(
    private records: WithdrawalRecords,
    private config: WithdrawalsConfig
  ) {}

  async execute(providerId: string, ownerWallet: string, limit: number | undefined) {
    const provider = await ownedProvider(providerId, ownerWallet)
    const { defaultLimit, maxLimit } = this.config.list
    return this.records.listOf(provider.id, Math.min(limit ?? defaultLimit, maxLimit))
  }
}
