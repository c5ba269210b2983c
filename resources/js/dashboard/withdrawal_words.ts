import type { Withdrawal } from './types'

/** A withdrawal's status as its owner should read it. */
export function statusInWords(withdrawal: Withdrawal) {
  switch (withdrawal.status) {
    case 'pending':
      return withdrawal.tx_hash
        ? 'Sending: waiting for the network to take it'
        : 'Queued: it is sent shortly'
    case 'broadcast':
      return 'Sent: waiting for a block to confirm it'
    case 'confirmed':
      return withdrawal.block_height ? `Confirmed in block ${withdrawal.block_height}` : 'Confirmed'
    case 'failed':
      return `Failed${withdrawal.failure_reason ? `: ${withdrawal.failure_reason}` : ''}. The amount is back in your pending revenue.`
  }
}

export function isSettled(withdrawal: Withdrawal) {
  return withdrawal.status === 'confirmed' || withdrawal.status === 'failed'
}
