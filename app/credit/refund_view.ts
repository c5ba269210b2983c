import type { ChainConfig } from '#chain/define_config'
import { explorerLink } from '#chain/explorer'
import { formatStx } from '#ledger/money'
import type { Withdrawal } from '#withdrawals/withdrawal_records'

/** The JSON of a refund: µSTX as integers (docs/api.md), the txid 0x-prefixed once signed. */
export function refundView(
  refund: Withdrawal,
  chain: Pick<ChainConfig, 'explorerUrl' | 'network'>
) {
  return {
    id: refund.id,
    status: refund.status,
    amount_microstx: Number(refund.amount),
    amount_stx: formatStx(refund.amount),
    destination_address: refund.destination,
    tx_hash: refund.txid ? `0x${refund.txid}` : null,
    explorer_url: refund.txid ? explorerLink(chain, refund.txid) : null,
    fee_microstx: refund.fee === null ? null : Number(refund.fee),
    block_height: refund.blockHeight,
    failure_reason: refund.failureReason,
    created_at: refund.createdAt.toISOString(),
    updated_at: refund.updatedAt.toISOString(),
  }
}
