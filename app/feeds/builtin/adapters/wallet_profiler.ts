import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { type UpstreamHttp, defineAdapter } from '#feeds/builtin/adapter'
import {
  ethplorerPath,
  ethplorerPrice,
  ethplorerTokenInfo,
  round2,
  tokenLabel,
  usdValue,
} from '#feeds/builtin/adapters/smart_money_flows'

/**
 * Holdings of one Ethereum address (ETH and ERC-20 tokens) valued at
 * Ethplorer's current prices, with allocation and concentration.
 */

const TOP_HOLDINGS = 20

const addressInfo = vine.create(
  vine
    .object({
      ETH: vine
        .object({ balance: vine.number(), price: ethplorerPrice.optional() })
        .allowUnknownProperties()
        .optional(),
      tokens: vine
        .array(
          vine
            .object({
              balance: vine.number(),
              rawBalance: vine.number().optional(),
              tokenInfo: ethplorerTokenInfo,
            })
            .allowUnknownProperties()
        )
        .optional(),
    })
    .allowUnknownProperties()
)

export interface Holding {
  token: string
  /** Contract address (lower-case); null for ETH itself. */
  tokenAddress: string | null
  amount: number
  /** Null when Ethplorer has no price for the token (spam airdrops, mostly). */
  valueUsd: number | null
}

/** One Ethplorer getAddressInfo call → the address's non-zero holdings. */
export async function readHoldings(
  http: UpstreamHttp,
  apiKey: string,
  address: string
): Promise<Holding[]> {
  const info = await http.getJson(
    'ethplorer',
    ethplorerPath('getAddressInfo', address, apiKey),
    addressInfo
  )
  const holdings: Holding[] = []
  if (info.ETH && info.ETH.balance > 0) {
    const rate = typeof info.ETH.price === 'object' ? info.ETH.price.rate : null
    holdings.push({
      token: 'ETH',
      tokenAddress: null,
      amount: info.ETH.balance,
      valueUsd: rate === null ? null : info.ETH.balance * rate,
    })
  }
  for (const held of info.tokens ?? []) {
    const raw = held.rawBalance ?? held.balance
    if (raw <= 0) continue
    const decimals = held.tokenInfo.decimals ?? 0
    holdings.push({
      token: tokenLabel(held.tokenInfo),
      tokenAddress: held.tokenInfo.address.toLowerCase(),
      amount: raw / 10 ** decimals,
      valueUsd: usdValue(held.tokenInfo, raw),
    })
  }
  return holdings
}

export function roundAmount(value: number) {
  return Number(value.toFixed(4))
}

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
    address: vine
      .string()
      .trim()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .toLowerCase(),
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
        amount: roundAmount(holding.amount),
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
