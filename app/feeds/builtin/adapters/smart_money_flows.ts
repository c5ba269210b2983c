import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import { type BuiltinFeedsSettings, type UpstreamHttp, defineAdapter } from '#feeds/builtin/adapter'

/**
 * Net token flows of the tracked wallets over the last 24 hours, from the
 * ERC-20 transfers Ethplorer lists for each wallet, valued at the token's
 * current Ethplorer price.
 */

export const WINDOW_HOURS = 24
/** Upper bound on wallets read per call, whatever the configuration says. */
export const MAX_TRACKED_WALLETS = 10
/** The most operations Ethplorer's free key returns per request. */
const HISTORY_LIMIT = 100
const TOP_TOKENS = 5

/** Ethplorer writes `price: false` for tokens it has no price for. */
export const ethplorerPrice = vine.unionOfTypes([
  vine.object({ rate: vine.number() }).allowUnknownProperties(),
  vine.boolean(),
])

export const ethplorerTokenInfo = vine
  .object({
    address: vine.string(),
    symbol: vine.string().optional(),
    decimals: vine.number().optional(),
    price: ethplorerPrice.optional(),
  })
  .allowUnknownProperties()

const addressHistory = vine.create(
  vine
    .object({
      operations: vine.array(
        vine
          .object({
            timestamp: vine.number(),
            type: vine.string(),
            from: vine.string().optional(),
            to: vine.string().optional(),
            value: vine.number(),
            tokenInfo: ethplorerTokenInfo,
          })
          .allowUnknownProperties()
      ),
    })
    .allowUnknownProperties()
)

type EthplorerTokenInfo = Infer<typeof ethplorerTokenInfo>

/**
 * USD value of a raw (integer-unit) amount at the current price, or null
 * when Ethplorer has no price or no decimals for the token.
 */
export function usdValue(token: EthplorerTokenInfo, rawAmount: number) {
  if (typeof token.price !== 'object' || token.decimals === undefined) return null
  return (rawAmount / 10 ** token.decimals) * token.price.rate
}

export function tokenLabel(token: EthplorerTokenInfo) {
  return token.symbol?.trim() || token.address.slice(0, 10)
}

export function ethplorerPath(endpoint: string, address: string, apiKey: string, extra = '') {
  return `/${endpoint}/${address}?apiKey=${encodeURIComponent(apiKey)}${extra}`
}

export interface TrackedWallet {
  address: string
  label: string
}

export function trackedWallets(settings: BuiltinFeedsSettings): TrackedWallet[] {
  return settings.smartMoneyWallets
    .slice(0, MAX_TRACKED_WALLETS)
    .map(({ address, label }) => ({ address: address.toLowerCase(), label }))
}

export interface TokenFlow {
  token: string
  tokenAddress: string
  inflowUsd: number
  outflowUsd: number
}

export interface WindowFlows {
  /** Per token contract (lower-case address). */
  byToken: Map<string, TokenFlow>
  transfersCounted: number
  unpricedTransfers: number
  /** False when a wallet's history ran out before reaching the window's start. */
  windowComplete: boolean
}

/**
 * The tracked wallets' token flows over the window. Transfers between two
 * tracked wallets are internal reshuffles and are left out (they would
 * otherwise count once as inflow and once as outflow). Wallets are read one
 * after another: Ethplorer's free key allows two requests a second.
 */
export async function readWindowFlows(
  http: UpstreamHttp,
  settings: BuiltinFeedsSettings,
  nowMs: number
): Promise<WindowFlows> {
  const wallets = trackedWallets(settings)
  const tracked = new Set(wallets.map((wallet) => wallet.address))
  const since = nowMs / 1000 - WINDOW_HOURS * 3600
  const until = nowMs / 1000
  const flows: WindowFlows = {
    byToken: new Map(),
    transfersCounted: 0,
    unpricedTransfers: 0,
    windowComplete: true,
  }

  for (const wallet of wallets) {
    const { operations } = await http.getJson(
      'ethplorer',
      ethplorerPath(
        'getAddressHistory',
        wallet.address,
        settings.ethplorerApiKey,
        `&type=transfer&limit=${HISTORY_LIMIT}`
      ),
      addressHistory
    )
    const oldest = Math.min(...operations.map((operation) => operation.timestamp))
    if (operations.length >= HISTORY_LIMIT && oldest > since) flows.windowComplete = false

    for (const operation of operations) {
      if (operation.type !== 'transfer' || operation.timestamp < since) continue
      if (operation.timestamp > until) continue
      const from = operation.from?.toLowerCase()
      const to = operation.to?.toLowerCase()
      const incoming = to === wallet.address
      if (!incoming && from !== wallet.address) continue
      if (from && to && tracked.has(from) && tracked.has(to)) continue

      const usd = usdValue(operation.tokenInfo, operation.value)
      if (usd === null) {
        flows.unpricedTransfers++
        continue
      }
      const tokenAddress = operation.tokenInfo.address.toLowerCase()
      const flow = flows.byToken.get(tokenAddress) ?? {
        token: tokenLabel(operation.tokenInfo),
        tokenAddress,
        inflowUsd: 0,
        outflowUsd: 0,
      }
      if (incoming) flow.inflowUsd += usd
      else flow.outflowUsd += usd
      flows.byToken.set(tokenAddress, flow)
      flows.transfersCounted++
    }
  }
  return flows
}

export function round2(value: number) {
  return Math.round(value * 100) / 100
}

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

    return {
      signal: flowSignal(netInflow, netOutflow),
      net_inflow_usd: round2(netInflow),
      net_outflow_usd: round2(netOutflow),
      top_inflows: netIn
        .sort((a, b) => b.net_usd - a.net_usd)
        .slice(0, TOP_TOKENS)
        .map((token) => ({
          token: token.token,
          token_address: token.token_address,
          amount_usd: round2(token.net_usd),
        })),
      top_outflows: netOut
        .sort((a, b) => a.net_usd - b.net_usd)
        .slice(0, TOP_TOKENS)
        .map((token) => ({
          token: token.token,
          token_address: token.token_address,
          amount_usd: round2(-token.net_usd),
        })),
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
