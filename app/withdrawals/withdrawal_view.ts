import type { ChainConfig } from '#chain/define_config'
import { explorerLink } from '#chain/explorer'
import { formatStx } from '#ledger/money'
import type { WithdrawalView } from '#withdrawals/withdrawal_api'
import type { Withdrawal } from '#withdrawals/withdrawal_records'

/** The JSON of a withdrawal (µSTX as integers, txids 0x-prefixed). */
export function withdrawalView(
  withdrawal: Withdrawal,
  chain: Pick<ChainConfig, 'explorerUrl' | 'network'>
): WithdrawalView {
  return {
    id: withdrawal.id,
    status: withdrawal.status,
    amount_microstx: Number(withdrawal.amount),
    amount_stx: formatStx(withdrawal.amount),
    destination_address: withdrawal.destination,
    idempotency_key: withdrawal.idempotencyKey,
    memo: withdrawal.memo,
    tx_hash: withdrawal.txid ? `0x${withdrawal.txid}` : null,
    explorer_url: withdrawal.txid ? explorerLink(chain, withdrawal.txid) : null,
    nonce: withdrawal.nonce === null ? null : Number(withdrawal.nonce),
    fee_microstx: withdrawal.fee === null ? null : Number(withdrawal.fee),
    block_height: withdrawal.blockHeight,
    failure_reason: withdrawal.failureReason,
    created_at: withdrawal.createdAt.toISOString(),
    updated_at: withdrawal.updatedAt.toISOString(),
  }
}

const CSV_COLUMNS = [
  'id',
  'created_at',
  'status',
  'amount_microstx',
  'amount_stx',
  'destination_address',
  'memo',
  'tx_hash',
  'block_height',
  'fee_microstx',
  'failure_reason',
] as const

/** The withdrawal history as CSV (RFC 4180), one row per withdrawal. */
export function withdrawalsCsv(views: WithdrawalView[]): string {
  const lines = [CSV_COLUMNS.join(',')]
  for (const view of views) {
    lines.push(CSV_COLUMNS.map((column) => csvField(view[column])).join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}

function csvField(value: string | number | null): string {
  if (value === null) return ''
  const text = String(value)
  // A leading =, +, - or @ would be a formula to a spreadsheet.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}
