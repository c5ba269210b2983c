import pRetry from 'p-retry'
import type { BroadcastOutcome } from '#chain/broadcast_outcome'
import type { StacksClient } from '#chain/stacks_client'

export interface BroadcastRetryOptions {
  /** Total attempts (the spec: 3). */
  attempts: number
  /** Delay before the second attempt; doubled for each further one. */
  firstDelayMs: number
}

class RateLimited extends Error {
  constructor(readonly outcome: BroadcastOutcome) {
    super('rate limited by the Stacks node')
  }
}

/**
 * Broadcasts with up to `attempts` tries and exponential back-off, retrying
 * only when the node rate-limits us (429): it then did not take the
 * transaction. Every other outcome — accepted, rejected, unknown — is final
 * for this call and returned as is.
 */
export async function broadcastTransaction(
  chain: Pick<StacksClient, 'broadcast'>,
  bytes: Uint8Array,
  options: BroadcastRetryOptions
): Promise<BroadcastOutcome> {
  try {
    return await pRetry(
      async () => {
        const outcome = await chain.broadcast(bytes)
        if (outcome.kind === 'rate_limited') throw new RateLimited(outcome)
        return outcome
      },
      {
        retries: options.attempts - 1,
        minTimeout: options.firstDelayMs,
        factor: 2,
        randomize: false,
      }
    )
  } catch (error) {
    if (error instanceof RateLimited) return error.outcome
    throw error
  }
}
