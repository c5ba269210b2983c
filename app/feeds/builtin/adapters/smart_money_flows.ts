import { defineAdapter } from '#feeds/builtin/adapter'
import { WINDOW_HOURS, readWindowFlows } from '#feeds/builtin/ethplorer_reads'
import { round2 } from '#feeds/builtin/rounding'
import { trackedWallets } from '#feeds/builtin/tracked_wallets'

/**
 * Net token flows of the tracked wallets over the last 24 hours, from the
 * ERC-20 transfers Ethplorer lists for each wallet, valued at the token's
 * current Ethplorer price.
 */

const TOP_TOKENS = 5

export function flowSignal(inflowUsd: number, outflowUsd: number) {
  if (inflowUsd === 0 && outflowUsd === 0) return 'NEUTRAL'
  if (inflowUsd > 1.5 * outflowUsd) return 'STRONG_BUY'
  if (inflowUsd > outflowUsd) return 'BUY'
  if (outflowUsd > 1.5 * inflowUsd) return 'STRONG_SELL'
  return 'SELL'
}

export default defineAdapter({
  upstreams: ['ethplorer'],
  async fetch(ctx) {
    const flows = await readWindowFlows(ctx.http, ctx.settings, ctx.now())
    const tokens = [...flows.byToken.values()].map((flow) => ({
      token: flow.token,
      token_address: flow.tokenAddress,
      net_usd: flow.inflowUsd - flow.outflowUsd,
    }))
    const netIn = tokens.filter((token) => token.net_usd > 0)
    const netOut = tokens.filter((token) => token.net_usd < 0)
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)
    const netInflow = sum(netIn.map((token) => token.net_usd))
    const netOutflow = -sum(netOut.map((token) => token.net_usd))
    const all = [...flows.byToken.values()]
    /** The largest net flows one way (1: in, −1: out), as positive USD amounts. */
    const largest = (list: typeof tokens, direction: 1 | -1) =>
      list
        .sort((a, b) => direction * (b.net_usd - a.net_usd))
        .slice(0, TOP_TOKENS)
        .map((token) => ({
          token: token.token,
          token_address: token.token_address,
          amount_usd: round2(direction * token.net_usd),
        }))

    return {
      signal: flowSignal(netInflow, netOutflow),
      net_inflow_usd: round2(netInflow),
      net_outflow_usd: round2(netOutflow),
      top_inflows: largest(netIn, 1),
      top_outflows: largest(netOut, -1),
      gross_inflow_usd: round2(sum(all.map((flow) => flow.inflowUsd))),
      gross_outflow_usd: round2(sum(all.map((flow) => flow.outflowUsd))),
      window_hours: WINDOW_HOURS,
      wallets_tracked: trackedWallets(ctx.settings).length,
      transfers_counted: flows.transfersCounted,
      unpriced_transfers: flows.unpricedTransfers,
      window_complete: flows.windowComplete,
    }
  },
})
