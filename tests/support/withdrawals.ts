import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { emptyMarketplace } from '#tests/support/database'
import type { ApiClient } from '@japa/api-client'
import type { Group } from '@japa/runner/core'
import { randomPrivateKey } from '@stacks/transactions'
import { PlatformWallet } from '#chain/platform_wallet'
import { accounts } from '#ledger/accounts'
import { Ledger } from '#ledger/ledger'
import { LedgerAudit } from '#ledger/ledger_audit'
import type { Microstx } from '#ledger/money'
import Provider from '#models/provider'
import type { Devnet } from '#tests/support/chain'
import { pointAppAtDevnet } from '#tests/support/chain'
import { registerProvider } from '#tests/support/providers'
import { signIn, walletOf } from '#tests/support/sign_in'
import { ConfirmWithdrawals } from '#withdrawals/confirm_withdrawals'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import { changeConfig } from '#tests/support/config'
import { WithdrawalChainAudit } from '#withdrawals/withdrawal_chain_audit'

export const PLATFORM_FUNDS = 100_000_000_000n

const withdrawalsConfig = await app.container.make(WithdrawalsConfig)

/**
 * Broadcast retries after 5 ms and a confirm job without grace (nothing waits
 * on real time); returns the function that puts the configuration back.
 */
export function withoutWithdrawalDelays() {
  const restoreBroadcast = changeConfig(withdrawalsConfig.broadcast, {
    firstDelayMs: 5,
    maxRetryAfterMs: 5,
  })
  const restoreConfirm = changeConfig(withdrawalsConfig.confirm, { graceSeconds: 0 })
  return () => {
    restoreBroadcast()
    restoreConfirm()
  }
}

export interface WithdrawalStack {
  devnet: Devnet
  confirm(): Promise<Awaited<ReturnType<ConfirmWithdrawals['run']>>>
}

/**
 * Per test: a devnet funding the platform wallet, small broadcast delays and
 * no confirm-job grace. Withdrawals need real connections (row locks between
 * concurrent requests), so this runs outside the per-test global transaction
 * and empties what it wrote afterwards; first the ledger must pass its audit,
 * and every settled withdrawal the chain audit.
 */
export function useWithdrawalStack(group: Group, options: { blockTimeMs: number | null }) {
  const stack = {} as WithdrawalStack
  group.each.setup(async () => {
    const wallet = await app.container.make(PlatformWallet)
    const chain = await pointAppAtDevnet({
      blockTimeMs: options.blockTimeMs,
      fund: [{ address: wallet.address, amount: PLATFORM_FUNDS }],
    })
    const restoreConfig = withoutWithdrawalDelays()
    Object.assign(stack, {
      devnet: chain.devnet,
      async confirm() {
        const job = await app.container.make(ConfirmWithdrawals)
        return job.run()
      },
    })
    return async () => {
      try {
        const ledger = await app.container.make(LedgerAudit)
        const onChain = await app.container.make(WithdrawalChainAudit)
        const { discrepancies } = await ledger.run()
        const findings = [...discrepancies, ...(await onChain.run())]
        if (findings.length > 0) throw new Error(`audit failed: ${findings.join('; ')}`)
      } finally {
        restoreConfig()
        await chain.cleanup()
        await emptyMarketplace()
      }
    }
  })
  return stack
}

/**
 * A signed-in owner with a provider holding `pending` µSTX (an opening-balance
 * posting through the ledger) and, unless told otherwise, a linked withdrawal
 * wallet of its own.
 */
export async function providerWithRevenue(
  client: ApiClient,
  pending: Microstx,
  options: { linked?: boolean; handle?: string } = {}
) {
  const ownerKey = randomPrivateKey()
  const owner = { ...(await signIn(client, ownerKey)), key: ownerKey }
  const { provider } = await registerProvider(client, owner.token, {
    handle: options.handle ?? `p-${Math.random().toString(36).slice(2, 10)}`,
  })
  const ledger = await app.container.make(Ledger)
  await db.transaction((trx) =>
    ledger.post(trx, {
      kind: 'opening_balance',
      reference: provider.id,
      entries: [
        { account: accounts.platformWallet, amount: pending },
        { account: accounts.providerPending(provider.id), amount: -pending },
      ],
    })
  )
  const withdrawalWallet = walletOf(randomPrivateKey())
  if (options.linked !== false) {
    await Provider.query()
      .where('id', provider.id)
      .update({ linked_withdrawal_wallet: withdrawalWallet })
  }
  return { owner, providerId: provider.id, withdrawalWallet }
}

export async function pendingRevenueOf(providerId: string): Promise<bigint> {
  const provider = await Provider.findOrFail(providerId)
  return provider.pendingRevenueMicrostx
}
