import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { defineAdapter } from '#feeds/builtin/adapter'
import { type Holding, readHoldings } from '#feeds/builtin/ethplorer_reads'
import { evmAddress } from '#feeds/builtin/query_rules'
import { round, round2 } from '#feeds/builtin/rounding'

/**
 * Holdings of one Ethereum address (ETH and ERC-20 tokens) valued at
 * Ethplorer's current prices, with allocation and concentration.
 */

const TOP_HOLDINGS = 20

/** Labels by the share of the three largest holdings (see docs/feeds/wallet-profiler.md). */
function diversification(top3Pct: number, totalUsd: number) {
  if (totalUsd === 0) return 'empty'
  if (top3Pct >= 90) return 'highly_concentrated'
  if (top3Pct >= 70) return 'concentrated'
  if (top3Pct >= 50) return 'moderate'
  return 'diversified'
}

const ethereumOnly = vine.createRule((value: unknown, _options: undefined, field: FieldContext) => {
  if (value !== 'ethereum') {
    field.report(
      'wallet-profiler reads Ethereum mainnet only (Ethplorer); use chain=ethereum',
      'ethereumOnly',
      field
    )
  }
})

export default defineAdapter({
  upstreams: ['ethplorer'],
  query: vine.create({
    address: evmAddress(),
    chain: vine.string().trim().toLowerCase().use(ethereumOnly()).optional(),
  }),
  async fetch(ctx) {
    const holdings = await readHoldings(ctx.http, ctx.settings.ethplorerApiKey, ctx.query.address)
    const priced = holdings
      .filter((holding): holding is Holding & { valueUsd: number } => holding.valueUsd !== null)
      .sort((a, b) => b.valueUsd - a.valueUsd)
    const total = priced.reduce((sum, holding) => sum + holding.valueUsd, 0)
    const share = (usd: number) => (total === 0 ? 0 : (usd / total) * 100)
    const topShare = (count: number) =>
      round2(share(priced.slice(0, count).reduce((sum, holding) => sum + holding.valueUsd, 0)))
    const top3 = topShare(3)

    return {
      address: ctx.query.address,
      chain: 'ethereum',
      total_value_usd: round2(total),
      token_count: priced.length,
      unpriced_token_count: holdings.length - priced.length,
      holdings: priced.slice(0, TOP_HOLDINGS).map((holding) => ({
        token: holding.token,
        token_address: holding.tokenAddress,
        amount: round(holding.amount, 4),
        value_usd: round2(holding.valueUsd),
        allocation_pct: round2(share(holding.valueUsd)),
      })),
      concentration: {
        top_3_pct: top3,
        top_5_pct: topShare(5),
        diversification: diversification(top3, total),
      },
    }
  },
})
