import { Counter, Gauge, Histogram } from 'prom-client'
import type { Microstx } from '#ledger/money'
import { PREFIX, registry } from '#metrics/registry'

/**
 * The service's metrics and the one-line calls that move them
 * (docs/operations.md#metrics). Every label takes a bounded set of values:
 * route patterns, codes and states, never a payer, txid or feed.
 */

/** How a paid call was paid: an x402 transfer on chain, or prepaid credit (docs/credit.md). */
export type PaymentWay = 'onchain' | 'credit'

/**
 * What a paid call came to: served (`paid`), answered with a receipt while
 * the transfer settles (`pending`), refused with a 402 (`refused`), or failed
 * with an error (`failed`).
 */
export type PaidCallOutcome = 'paid' | 'pending' | 'refused' | 'failed'

const httpRequests = new Counter({
  name: `${PREFIX}http_requests_total`,
  help: 'HTTP requests answered, by route pattern (`unmatched` for no route) and status',
  labelNames: ['route', 'status'] as const,
  registers: [registry],
})

const paidCalls = new Counter({
  name: `${PREFIX}paid_calls_total`,
  help: 'Requests carrying a payment, by outcome and way of payment',
  labelNames: ['outcome', 'way'] as const,
  registers: [registry],
})

const revenue = new Counter({
  name: `${PREFIX}revenue_microstx_total`,
  help: 'What confirmed paid calls paid, in µSTX, by way of payment',
  labelNames: ['way'] as const,
  registers: [registry],
})

const settlement = new Histogram({
  name: `${PREFIX}settlement_duration_seconds`,
  help: 'From the broadcast to the confirmation of a paid call settled within its request',
  buckets: [0.5, 1, 2, 5, 10, 15, 20, 30, 60],
  registers: [registry],
})

const chainErrors = new Counter({
  name: `${PREFIX}chain_errors_total`,
  help: 'Stacks API requests that failed, by reason',
  labelNames: ['reason'] as const,
  registers: [registry],
})

const withdrawals = new Counter({
  name: `${PREFIX}withdrawals_total`,
  help: 'Withdrawals (and credit refunds) that reached a status',
  labelNames: ['status'] as const,
  registers: [registry],
})

const mirrorPolls = new Counter({
  name: `${PREFIX}mirror_polls_total`,
  help: 'Polls of Hosted Mirror feeds by mirrors:poll, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
})

const rateLimitRefusals = new Counter({
  name: `${PREFIX}rate_limit_refusals_total`,
  help: 'Requests refused with 429 by a rate limit (config/rate_limits.ts), by limit',
  labelNames: ['limit'] as const,
  registers: [registry],
})

/**
 * Whether the Stacks node answers, probed on each scrape: reported, never a
 * readiness failure (docs/operations.md#health-checks). Workers share one
 * node, so the cluster's scrape keeps the highest answer. The probe is
 * imported when first scraped: the chain client it uses counts its errors here.
 */
new Gauge({
  name: `${PREFIX}chain_node_up`,
  help: '1 when the Stacks node answered this scrape, 0 when it did not',
  aggregator: 'max',
  registers: [registry],
  async collect() {
    const { chainNodeUp } = await import('#health/dependency_probes')
    this.set((await chainNodeUp()) ? 1 : 0)
  },
})

export const metrics = {
  httpRequest(route: string, status: number) {
    httpRequests.inc({ route, status: String(status) })
  },

  paidCall(outcome: PaidCallOutcome, way: PaymentWay) {
    paidCalls.inc({ outcome, way })
  },

  /** Counts a paid call by what `call` answers (or `failed` when it throws); its settlement time too. */
  async paidCallOf<Result extends PaidCallAnswer>(way: PaymentWay, call: Promise<Result>) {
    try {
      const result = await call
      metrics.paidCall(OUTCOMES[result.kind], way)
      if (result.timing) settlement.observe(result.timing.chainMs / 1_000)
      return result
    } catch (error) {
      metrics.paidCall('failed', way)
      throw error
    }
  },

  revenue(amount: Microstx, way: PaymentWay) {
    revenue.inc({ way }, Number(amount))
  },

  chainError(reason: string) {
    chainErrors.inc({ reason })
  },

  withdrawal(status: string) {
    withdrawals.inc({ status })
  },

  mirrorPoll(outcome: 'updated' | 'unchanged' | 'failed') {
    mirrorPolls.inc({ outcome })
  },

  rateLimitRefused(limit: string) {
    rateLimitRefusals.inc({ limit })
  },
}

/** What metrics.paidCallOf reads of a paid call's answer (app/payments/paid_call_response.ts). */
interface PaidCallAnswer {
  kind: 'paid' | 'pending' | 'payment_required'
  timing?: { chainMs: number }
}

const OUTCOMES = {
  paid: 'paid',
  pending: 'pending',
  payment_required: 'refused',
} as const satisfies Record<PaidCallAnswer['kind'], PaidCallOutcome>
