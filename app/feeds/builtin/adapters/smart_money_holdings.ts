import { defineAdapter } from '#feeds/builtin/adapter'
import { WINDOW_HOURS, readHoldings, readWindowFlows } from '#feeds/builtin/ethplorer_reads'
import { round, round2 } from '#feeds/builtin/rounding'
import { trackedWallets } from '#feeds/builtin/tracked_wallets'

/**
 * What the tracked wallets hold now (Ethplorer getAddressInfo), and whether
 * they have been adding to or reducing each position over the last 24 hours
 * (net ERC-20 flow from getAddressHistory).
 */

const TOP_HOLDINGS = 20
/** A net flow below this share of the position's value is noise: neutral. */
const SIGNAL_THRESHOLD = 0.01

interface AggregatedHolding {
  token: string
  tokenAddress: string | null
  amount: number
  valueUsd: number
  holders: number
}

function holdingSignal(netFlowUsd: number | null, valueUsd: number) {
  if (netFlowUsd === null || Math.abs(netFlowUsd) < SIGNAL_THRESHOLD * valueUsd) return 'neutral'
  return netFlowUsd > 0 ? 'accumulation' : 'distribution'
}

export default defineAdapter({
  upstreams: ['ethplorer'],
  async fetch(ctx) {
    const wallets = trackedWallets(ctx.settings)
    const byToken = new Map<string, AggregatedHolding>()
    let unpriced = 0
    // One wallet at a time: Ethplorer's free key allows two requests a second.
    for (const wallet of wallets) {
      for (const holding of await readHoldings(
        ctx.http,
        ctx.settings.ethplorerApiKey,
        wallet.address
      )) {
        if (holding.valueUsd === null) {
          unpriced++
          continue
        }
        const key = holding.tokenAddress ?? 'ETH'
        const entry = byToken.get(key) ?? {
          token: holding.token,
          tokenAddress: holding.tokenAddress,
          amount: 0,
          valueUsd: 0,
          holders: 0,
        }
        entry.amount += holding.amount
        entry.valueUsd += holding.valueUsd
        entry.holders++
        byToken.set(key, entry)
      }
    }
    const flows = await readWindowFlows(ctx.http, ctx.settings, ctx.now())

    const aggregated = [...byToken.values()]
    const holdings = aggregated
      .sort((a, b) => b.valueUsd - a.valueUsd)
      .map((holding) => {
        // Ethplorer's history lists token transfers only, so ETH has no flow.
        const flow = holding.tokenAddress ? flows.byToken.get(holding.tokenAddress) : undefined
        const netFlow = holding.tokenAddress ? (flow ? flow.inflowUsd - flow.outflowUsd : 0) : null
        return {
          token: holding.token,
          token_address: holding.tokenAddress,
          amount: round(holding.amount, 4),
          value_usd: round2(holding.valueUsd),
          holders: holding.holders,
          net_flow_24h_usd: netFlow === null ? null : round2(netFlow),
          signal: holdingSignal(netFlow, holding.valueUsd),
        }
      })
    const count = (signal: string) => holdings.filter((holding) => holding.signal === signal).length

    return {
      holdings: holdings.slice(0, TOP_HOLDINGS),
      total_value_usd: round2(aggregated.reduce((sum, holding) => sum + holding.valueUsd, 0)),
      summary: {
        token_count: holdings.length,
        accumulating: count('accumulation'),
        distributing: count('distribution'),
        neutral: count('neutral'),
        unpriced_positions: unpriced,
      },
      window_hours: WINDOW_HOURS,
      wallets_tracked: wallets.length,
      window_complete: flows.windowComplete,
    }
  },
})
