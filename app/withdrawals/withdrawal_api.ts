/**
 * A withdrawal as the API answers it (withdrawal_view.ts builds it, the
 * dashboard reads it). This file imports nothing: the pages import its types.
 */

export type WithdrawalStatus = 'pending' | 'broadcast' | 'confirmed' | 'failed'

/** µSTX as integers, txids 0x-prefixed, times ISO 8601 UTC. */
export interface WithdrawalView {
  id: string
  status: WithdrawalStatus
  amount_microstx: number
  amount_stx: string
  destination_address: string
  idempotency_key: string
  memo: string
  tx_hash: string | null
  explorer_url: string | null
  nonce: number | null
  fee_microstx: number | null
  block_height: number | null
  failure_reason: string | null
  created_at: string
  updated_at: string
}
