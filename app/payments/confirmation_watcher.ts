import type { StacksClient, TransactionStatus } from '#chain/stacks_client'
import type { CancelTimeout, Clock } from '#core/clock'

export type ConfirmationOutcome =
  | { state: 'confirmed'; status: TransactionStatus }
  | { state: 'failed'; status: TransactionStatus }
  /** Not settled within the caller's wait: it may still confirm later. */
  | { state: 'pending' }

export interface ConfirmationWatcherOptions {
  /** First poll after a transaction is added: soon, it may already be mined. */
  firstPollMs: number
  /** Then about the network's block time. */
  pollIntervalMs: number
  /** How long a look-up waits for others to share its call (default: firstPollMs). */
  lookupBatchMs?: number
}

interface Lookup {
  resolve(status: TransactionStatus | null): void
  reject(error: unknown): void
}

interface Waiter {
  resolve(outcome: ConfirmationOutcome): void
  cancelDeadline: CancelTimeout
}

/**
 * One watcher per process keeps the set of txids awaiting confirmation and
 * resolves them in batches: one `/extended/v1/tx/multiple` call per poll for
 * every waiting payment, so chain API calls grow with blocks, not buyers.
 * One-off look-ups ("does the node know this txid?") ride on the same calls.
 * Polling stops when nobody waits. Its timers run on the Clock.
 */
export class ConfirmationWatcher {
  #waiting = new Map<string, Set<Waiter>>()
  #lookups = new Map<string, Lookup[]>()
  #cancelPoll?: CancelTimeout
  #dueAt = 0
  #polling = false

  constructor(
    private chain: Pick<StacksClient, 'getTransactions'>,
    private clock: Clock,
    private options: ConfirmationWatcherOptions
  ) {}

  /** Resolves when the txid confirms or fails on chain, or with `pending` after `waitMs`. */
  wait(txid: string, waitMs: number): Promise<ConfirmationOutcome> {
    return new Promise((resolve) => {
      const waiters = this.#waiting.get(txid) ?? new Set<Waiter>()
      const waiter: Waiter = {
        resolve,
        cancelDeadline: this.clock.setTimeout(() => {
          waiters.delete(waiter)
          if (waiters.size === 0) this.#waiting.delete(txid)
          resolve({ state: 'pending' })
        }, waitMs),
      }
      waiters.add(waiter)
      this.#waiting.set(txid, waiters)
      this.#schedule(this.options.firstPollMs)
    })
  }

  /** The transaction's current status (null: the node does not know it), batched with others. */
  lookup(txid: string): Promise<TransactionStatus | null> {
    return new Promise((resolve, reject) => {
      const lookups = this.#lookups.get(txid) ?? []
      lookups.push({ resolve, reject })
      this.#lookups.set(txid, lookups)
      this.#schedule(this.options.lookupBatchMs ?? this.options.firstPollMs)
    })
  }

  stop() {
    this.#cancelPoll?.()
    this.#cancelPoll = undefined
    for (const [txid, waiters] of this.#waiting) {
      for (const waiter of waiters) {
        waiter.cancelDeadline()
        waiter.resolve({ state: 'pending' })
      }
      this.#waiting.delete(txid)
    }
    for (const asked of this.#lookups.values()) {
      for (const lookup of asked) lookup.reject(new Error('the confirmation watcher stopped'))
    }
    this.#lookups.clear()
  }

  /** Polls in `delayMs` unless a poll is already due sooner (a later request never delays it). */
  #schedule(delayMs: number) {
    if (this.#polling) return
    const dueAt = this.clock.now() + delayMs
    if (this.#cancelPoll) {
      if (this.#dueAt <= dueAt) return
      this.#cancelPoll()
    }
    this.#dueAt = dueAt
    this.#cancelPoll = this.clock.setTimeout(() => void this.#poll(), delayMs)
  }

  async #poll() {
    this.#cancelPoll = undefined
    const lookups = this.#lookups
    this.#lookups = new Map()
    if (this.#waiting.size === 0 && lookups.size === 0) return
    this.#polling = true
    try {
      const statuses = await this.chain.getTransactions([
        ...new Set([...this.#waiting.keys(), ...lookups.keys()]),
      ])
      for (const [txid, asked] of lookups) {
        for (const lookup of asked) lookup.resolve(statuses.get(txid) ?? null)
      }
      for (const [txid, status] of statuses) {
        if (!status || (!status.confirmed && !status.failed)) continue
        const outcome: ConfirmationOutcome = {
          state: status.confirmed ? 'confirmed' : 'failed',
          status,
        }
        for (const waiter of this.#waiting.get(txid) ?? []) {
          waiter.cancelDeadline()
          waiter.resolve(outcome)
        }
        this.#waiting.delete(txid)
      }
    } catch (error) {
      // The node did not answer this time: waiters are asked about again at the next poll,
      // look-ups fail (their callers decide what an unavailable node means).
      for (const asked of lookups.values()) for (const lookup of asked) lookup.reject(error)
    } finally {
      this.#polling = false
    }
    if (this.#lookups.size > 0)
      this.#schedule(this.options.lookupBatchMs ?? this.options.firstPollMs)
    else if (this.#waiting.size > 0) this.#schedule(this.options.pollIntervalMs)
  }
}
