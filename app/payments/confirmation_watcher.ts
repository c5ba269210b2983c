import type { StacksClient, TransactionStatus } from '#chain/stacks_client'

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
}

interface Waiter {
  resolve(outcome: ConfirmationOutcome): void
  deadline: NodeJS.Timeout
}

/**
 * One watcher per process keeps the set of txids awaiting confirmation and
 * resolves them in batches: one `/extended/v1/tx/multiple` call per poll for
 * every waiting payment, so chain API calls grow with blocks, not buyers.
 * Polling stops when nobody waits.
 */
export class ConfirmationWatcher {
  #waiting = new Map<string, Set<Waiter>>()
  #timer?: NodeJS.Timeout
  #polling = false

  constructor(
    private chain: Pick<StacksClient, 'getTransactions'>,
    private options: ConfirmationWatcherOptions
  ) {}

  get waitingCount() {
    return this.#waiting.size
  }

  /** Resolves when the txid confirms or fails on chain, or with `pending` after `waitMs`. */
  wait(txid: string, waitMs: number): Promise<ConfirmationOutcome> {
    return new Promise((resolve) => {
      const waiters = this.#waiting.get(txid) ?? new Set<Waiter>()
      const waiter: Waiter = {
        resolve,
        deadline: setTimeout(() => {
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

  stop() {
    clearTimeout(this.#timer)
    this.#timer = undefined
    for (const [txid, waiters] of this.#waiting) {
      for (const waiter of waiters) {
        clearTimeout(waiter.deadline)
        waiter.resolve({ state: 'pending' })
      }
      this.#waiting.delete(txid)
    }
  }

  #schedule(delayMs: number) {
    if (this.#polling) return
    if (this.#timer) {
      if (delayMs >= this.options.pollIntervalMs) return
      clearTimeout(this.#timer)
    }
    this.#timer = setTimeout(() => void this.#poll(), delayMs)
  }

  async #poll() {
    this.#timer = undefined
    if (this.#waiting.size === 0) return
    this.#polling = true
    try {
      const statuses = await this.chain.getTransactions([...this.#waiting.keys()])
      for (const [txid, status] of statuses) {
        if (!status || (!status.confirmed && !status.failed)) continue
        const outcome: ConfirmationOutcome = {
          state: status.confirmed ? 'confirmed' : 'failed',
          status,
        }
        for (const waiter of this.#waiting.get(txid) ?? []) {
          clearTimeout(waiter.deadline)
          waiter.resolve(outcome)
        }
        this.#waiting.delete(txid)
      }
    } catch {
      // The node did not answer this time: the next poll asks again.
    } finally {
      this.#polling = false
    }
    if (this.#waiting.size > 0) this.#schedule(this.options.pollIntervalMs)
  }
}
