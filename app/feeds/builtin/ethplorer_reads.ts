import type { BuiltinFeedsSettings, UpstreamHttp } from '#feeds/builtin/adapter'
import { trackedWallets } from '#feeds/builtin/tracked_wallets'
import {
  type EthplorerTokenInfo,
  addressHistorySchema,
  addressInfoSchema,
} from '#feeds/builtin/upstream_schemas/ethplorer'

/**
 * Reads of Ethplorer shared by the wallet feeds: one address's holdings
 * (wallet-profiler, smart-money-holdings) and the tracked wallets' token
 * flows over the last 24 hours (smart-money-flows, smart-money-holdings).
 */

export const WINDOW_HOURS = 24
/** The most operations Ethplorer's free key returns per request. */
const HISTORY_LIMIT = 100

/**
 * USD value of a raw (integer-unit) amount at the current price, or null
 * when Ethplorer has no price or no decimals for the token.
 */
function usdValue(token: EthplorerTokenInfo, rawAmount: number) {
  if (typeof token.price !== 'object' || token.decimals === undefined) return null
  return (rawAmount / 10 ** token.decimals) * token.price.rate
}

function tokenLabel(token: EthplorerTokenInfo) {
  return token.symbol?.trim() || token.address.slice(0, 10)
}

function ethplorerPath(endpoint: string, address: string, apiKey: string, extra = '') {
  return `/${endpoint}/${address}?apiKey=${encodeURIComponent(apiKey)}${extra}`
}

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
    addressInfoSchema
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
 * The tracked wallets' token flows over the last WINDOW_HOURS, from the
 * ERC-20 transfers Ethplorer lists for each wallet, valued at the token's
 * current Ethplorer price. Transfers between two tracked wallets are
 * internal reshuffles and are left out (they would otherwise count once as
 * inflow and once as outflow). Wallets are read one after another:
 * Ethplorer's free key allows two requests a second.
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
      addressHistorySchema
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
