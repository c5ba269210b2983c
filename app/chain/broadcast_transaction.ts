import type { BroadcastOutcome } from '#chain/broadcast_outcome'
import type { StacksClient } from '#chain/stacks_client'
import type { Clock } from '#core/clock'

export interface BroadcastRetryOptions {
  /** Total attempts (the spec: 3). */
  attempts: number
  /** Delay before the second attempt when the node names none; doubled for each further one. */
  firstDelayMs: number
  /** The longest wait a node's Retry-After gets, so retries fit the paid call's budget. */
  maxRetryAfterMs: number
}

/**
 * Broadcasts with up to `attempts` tries, retrying only when the node
 * rate-limits us (429): it then did not take the transaction. Between tries
 * it waits what the node asked (Retry-After, capped), or backs off
 * exponentially when it asked nothing. Every other outcome — accepted,
 * rejected, unknown — is final for this call and returned as is.
 */
export async function broadcastTransaction(
  chain: Pick<StacksClient, 'broadcast'>,
  bytes: Uint8Array,
  options: BroadcastRetryOptions,
  clock: Clock
): Promise<BroadcastOutcome> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await chain.broadcast(bytes)
    if (outcome.kind !== 'rate_limited' || attempt >= options.attempts) return outcome
    const delayMs = retryDelayMs(outcome.retryAfterSeconds, attempt, options)
    if (delayMs > 0) await clock.sleep(delayMs)
  }
}

function retryDelayMs(
  retryAfterSeconds: number | undefined,
  attempt: number,
  options: BroadcastRetryOptions
) {
  if (retryAfterSeconds === undefined) return options.firstDelayMs * 2 ** (attempt - 1)
  return Math.min(retryAfterSeconds * 1_000, options.maxRetryAfterMs)
}
