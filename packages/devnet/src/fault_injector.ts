import { without0x } from '@stacks/common'

/**
 * Scripted misbehaviour for the devnet, so the service's retry, timeout and
 * failed-payment paths can be exercised against a real HTTP server.
 *
 * Rules are consumed in the order they were queued; a rule with a path prefix
 * only matches requests whose path starts with it. Admin routes (/devnet/*)
 * never consult the injector.
 */
export type InjectedStatus = 429 | 500 | 502 | 503

export const INJECTABLE_STATUSES: readonly InjectedStatus[] = [429, 500, 502, 503]

export type FaultAction =
  | { kind: 'status'; status: InjectedStatus; retryAfterSeconds: number | null }
  | { kind: 'timeout' }
  /** The request is carried out, then its answer lost: a `status` reply, or (null) a dropped connection. */
  | { kind: 'lost_answer'; status: InjectedStatus | null }

interface FaultRule {
  action: FaultAction
  remaining: number
  pathPrefix: string | null
}

/** What happens to a transaction the devnet admits. */
export type TransactionFault = 'abort' | 'report_dropped' | 'report_unknown'

/** What look-ups of a pending transaction say under a look-up fault. */
export type LookupFault = 'dropped' | 'unknown'

interface TransactionRule {
  fault: TransactionFault
  remaining: number
  sender: string | null
}

export interface FaultSummary {
  kind: FaultAction['kind'] | TransactionFault
  status?: InjectedStatus | null
  remaining: number
  path_prefix?: string | null
  sender?: string | null
}

export class FaultInjector {
  #rules: FaultRule[] = []
  #transactionRules: TransactionRule[] = []
  #aborted = new Set<string>()
  #lookupFaults = new Map<string, LookupFault>()
  #held = 0
  #heldWaiters: (() => void)[] = []

  /**
   * The next `count` matching requests are answered with `status`, with a
   * `Retry-After` of `retryAfterSeconds` (default: 1 for a 429, none otherwise; null: none).
   */
  failNext(
    count: number,
    status: InjectedStatus,
    pathPrefix?: string,
    { retryAfterSeconds = status === 429 ? 1 : null }: { retryAfterSeconds?: number | null } = {}
  ): void {
    checkStatus(status)
    this.#queue({ kind: 'status', status, retryAfterSeconds }, count, pathPrefix)
  }

  /** The next `count` matching requests are accepted and never answered. */
  timeoutNext(count: number, pathPrefix?: string): void {
    this.#queue({ kind: 'timeout' }, count, pathPrefix)
  }

  /**
   * The next `count` matching requests are carried out (a broadcast is
   * admitted), then their answer is lost: replaced by `status`, or, with
   * `status: null`, the connection held and dropped as by a timeout fault.
   */
  loseAnswerNext(
    count: number,
    pathPrefix?: string,
    { status = null }: { status?: InjectedStatus | null } = {}
  ): void {
    if (status !== null) checkStatus(status)
    this.#queue({ kind: 'lost_answer', status }, count, pathPrefix)
  }

  /** When mined, this transaction fails with `abort_by_response` (fee charged, nothing moved). */
  abort(txid: string): void {
    this.#aborted.add(without0x(txid).toLowerCase())
  }

  isAborted(txid: string): boolean {
    return this.#aborted.has(without0x(txid).toLowerCase())
  }

  /**
   * The next `count` admitted transactions (from `sender` only, when given)
   * suffer `fault`: `abort` — mined as `abort_by_response`, for transactions
   * whose txid the test cannot know beforehand; `report_dropped` — look-ups
   * answer `dropped_stale_garbage_collect` while it waits in the mempool, as
   * a node that garbage-collected it does, yet it is mined with the next
   * block as if another node had kept it (dropped, then confirmed);
   * `report_unknown` — look-ups answer "not found" until it is mined (also
   * once replaced), as a node that lost its mempool in a restart does.
   */
  transactionFaultNext(fault: TransactionFault, count: number, sender?: string): void {
    checkCount(count)
    this.#transactionRules.push({ fault, remaining: count, sender: sender ?? null })
  }

  /** The devnet reports a transaction it just admitted; a matching transaction rule applies to it. */
  admitted(tx: { txid: string; sender: string }): void {
    const rule = this.#transactionRules.find(
      (candidate) => candidate.sender === null || candidate.sender === tx.sender
    )
    if (!rule) return
    rule.remaining -= 1
    if (rule.remaining <= 0) this.#transactionRules.splice(this.#transactionRules.indexOf(rule), 1)
    const txid = without0x(tx.txid).toLowerCase()
    if (rule.fault === 'abort') this.#aborted.add(txid)
    else this.#lookupFaults.set(txid, rule.fault === 'report_dropped' ? 'dropped' : 'unknown')
  }

  /** The look-up fault this transaction suffers, if any. */
  lookupFault(txid: string): LookupFault | null {
    return this.#lookupFaults.get(without0x(txid).toLowerCase()) ?? null
  }

  /** Resolves once a timeout fault is holding a request: at once if one is held now. */
  held(): Promise<void> {
    if (this.#held > 0) return Promise.resolve()
    return new Promise((resolve) => this.#heldWaiters.push(resolve))
  }

  /** The server reports a request it now holds; the returned function reports its release. */
  holding(): () => void {
    this.#held += 1
    for (const resolve of this.#heldWaiters.splice(0)) resolve()
    return () => {
      this.#held -= 1
    }
  }

  clear(): void {
    this.#rules = []
    this.#transactionRules = []
    this.#aborted.clear()
    this.#lookupFaults.clear()
  }

  /** The fault to apply to a request for `path`, consuming one use of the rule. */
  take(path: string): FaultAction | null {
    const rule = this.#rules.find(
      (candidate) => candidate.pathPrefix === null || path.startsWith(candidate.pathPrefix)
    )
    if (!rule) return null
    rule.remaining -= 1
    if (rule.remaining <= 0) this.#rules.splice(this.#rules.indexOf(rule), 1)
    return rule.action
  }

  pending(): FaultSummary[] {
    const requests = this.#rules.map((rule) => ({
      kind: rule.action.kind,
      ...('status' in rule.action ? { status: rule.action.status } : {}),
      remaining: rule.remaining,
      path_prefix: rule.pathPrefix,
    }))
    const transactions = this.#transactionRules.map((rule) => ({
      kind: rule.fault,
      remaining: rule.remaining,
      sender: rule.sender,
    }))
    return [...requests, ...transactions]
  }

  #queue(action: FaultAction, count: number, pathPrefix: string | undefined): void {
    checkCount(count)
    this.#rules.push({ action, remaining: count, pathPrefix: pathPrefix ?? null })
  }
}

function checkCount(count: number) {
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new Error(`Fault count must be a positive integer, got ${count}`)
  }
}

function checkStatus(status: InjectedStatus) {
  if (!INJECTABLE_STATUSES.includes(status)) {
    throw new Error(`Cannot inject status ${status}; use one of ${INJECTABLE_STATUSES.join(', ')}`)
  }
}
