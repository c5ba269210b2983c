import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { ChainConfig } from '#chain/define_config'
import { Clock } from '#core/clock'
import type { Microstx } from '#ledger/money'
import type Provider from '#models/provider'
import { lockedProvider } from '#provider_accounts/provider_access'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import {
  E_AMOUNT_ABOVE_MAXIMUM,
  E_AMOUNT_BELOW_MINIMUM,
  E_DESTINATION_NOT_LINKED_WALLET,
  E_IDEMPOTENCY_CONFLICT,
  E_INSUFFICIENT_PENDING_REVENUE,
  E_WALLET_NOT_LINKED,
  E_WITHDRAWAL_WALLET_ON_HOLD,
} from '#withdrawals/exceptions'
import { WithdrawalDispatcher } from '#withdrawals/withdrawal_dispatcher'
import { WithdrawalLifecycle } from '#withdrawals/withdrawal_lifecycle'
import { type Withdrawal, WithdrawalRecords } from '#withdrawals/withdrawal_records'

export interface WithdrawalRequest {
  /** The owned provider (`ctx.ownedProvider`). */
  provider: Provider
  amount: Microstx
  destination: string
  idempotencyKey: string
}

/**
 * POST /providers/id/:id/withdraw, in the order of the spec's withdrawal
 * rules and docs/architecture.md#withdrawals: with the provider row locked,
 * the idempotency key first (a retry or a double click gets the original
 * withdrawal, never a second transfer), then linked wallet, minimum, maximum,
 * pending revenue, destination, new-wallet hold; then the conditional debit and the row in
 * one transaction. After the commit the platform wallet's pipeline signs and
 * broadcasts it (or queues it behind the chaining limit).
 */
@inject()
export class RequestWithdrawal {
  constructor(
    private db: Database,
    private lifecycle: WithdrawalLifecycle,
    private records: WithdrawalRecords,
    private dispatcher: WithdrawalDispatcher,
    private clock: Clock,
    private chain: ChainConfig,
    private config: WithdrawalsConfig
  ) {}

  async execute(request: WithdrawalRequest): Promise<{ withdrawal: Withdrawal; created: boolean }> {
    const recorded = await this.db.transaction(async (trx) => {
      const provider = await lockedProvider(request.provider, trx)
      const existing = await this.records.findByKey(
        { providerId: provider.id, creditAddress: null },
        request.idempotencyKey,
        trx
      )
      if (existing) {
        const same =
          existing.amount === request.amount && existing.destination === request.destination
        if (!same) throw new E_IDEMPOTENCY_CONFLICT()
        return { withdrawal: existing, created: false }
      }

      const { minimumMicrostx, maximumMicrostx } = this.config
      const linked = provider.linkedWithdrawalWallet
      if (!linked) throw new E_WALLET_NOT_LINKED()
      if (request.amount < minimumMicrostx) throw new E_AMOUNT_BELOW_MINIMUM([`${minimumMicrostx}`])
      if (request.amount > maximumMicrostx) throw new E_AMOUNT_ABOVE_MAXIMUM([`${maximumMicrostx}`])
      if (request.amount > provider.pendingRevenueMicrostx) {
        throw new E_INSUFFICIENT_PENDING_REVENUE([`${provider.pendingRevenueMicrostx}`])
      }
      if (request.destination !== linked) throw new E_DESTINATION_NOT_LINKED_WALLET()
      const heldUntil = provider.withdrawalWalletHeldUntil
      if (heldUntil && heldUntil.toMillis() > this.clock.now()) {
        throw new E_WITHDRAWAL_WALLET_ON_HOLD([heldUntil.toUTC().toISO()!])
      }

      const withdrawal = await this.lifecycle.request(trx, {
        owner: { providerId: provider.id, creditAddress: null },
        idempotencyKey: request.idempotencyKey,
        amount: request.amount,
        destination: request.destination,
        memoPrefix: this.chain.withdrawalMemoPrefix,
      })
      if (!withdrawal) {
        throw new E_INSUFFICIENT_PENDING_REVENUE([`${provider.pendingRevenueMicrostx}`])
      }
      return { withdrawal, created: true }
    })

    if (!recorded.created) return recorded
    return {
      withdrawal: await this.dispatcher.dispatchRequested(recorded.withdrawal.id),
      created: true,
    }
  }
}
