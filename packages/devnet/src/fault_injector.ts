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
  { kind: 'status'; status: InjectedStatus; retryAfterSeconds: number | null } | { kind: 'timeout' }

interface FaultRule {
  action: FaultAction
  remaining: number
  pathPrefix: string | null
}

export interface FaultSummary {
  kind: 'status' | 'timeout'
  status?: InjectedStatus
  remaining: number
  path_prefix: string | null
}

export class FaultInjector {
  #rules: FaultRule[] = []
  #aborted = new Set<string>()
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
    if (!INJECTABLE_STATUSES.includes(status)) {
      throw new Error(
        `Cannot inject status ${status}; use one of ${INJECTABLE_STATUSES.join(', ')}`
      )
    }
    this.#queue({ kind: 'status', status, retryAfterSeconds }, count, pathPrefix)
  }

  /** The next `count` matching requests are accepted and never answered. */
  timeoutNext(count: number, pathPrefix?: string): void {
    this.#queue({ kind: 'timeout' }, count, pathPrefix)
  }

  /** When mined, this transaction fails with `abort_by_response` (fee charged, nothing moved). */
  abort(txid: string): void {
    this.#aborted.add(without0x(txid).toLowerCase())
  }

  isAborted(txid: string): boolean {
    return this.#aborted.has(without0x(txid).toLowerCase())
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
    this.#aborted.clear()
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
    return this.#rules.map((rule) => ({
      kind: rule.action.kind,
      ...(rule.action.kind === 'status' ? { status: rule.action.status } : {}),
      remaining: rule.remaining,
      path_prefix: rule.pathPrefix,
    }))
  }

  #queue(action: FaultAction, count: number, pathPrefix: string | undefined): void {
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new Error(`Fault count must be a positive integer, got ${count}`)
    }
    this.#rules.push({ action, remaining: count, pathPrefix: pathPrefix ?? null })
  }
}
