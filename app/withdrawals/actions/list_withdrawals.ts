import { inject } from '@adonisjs/core'
import type Provider from '#models/provider'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import { WithdrawalRecords } from '#withdrawals/withdrawal_records'

/** GET /providers/id/:id/withdrawals: the owner's history, newest first, `limit` capped. */
@inject()
export class ListWithdrawals {
  constructor(
    private records: WithdrawalRecords,
    private config: WithdrawalsConfig
  ) {}

  async execute(provider: Provider, limit: number | undefined) {
    const { defaultLimit, maxLimit } = this.config.list
    return this.records.listOf(provider.id, Math.min(limit ?? defaultLimit, maxLimit))
  }
}
