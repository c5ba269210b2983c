import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { defineAdapter } from '#feeds/builtin/adapter'
import { evmAddress, TOKEN_INTEL_CHAINS } from '#feeds/builtin/query_rules'
import { round2, roundPrice } from '#feeds/builtin/rounding'

/**
 * Buy/sell pressure, volume, liquidity and price of one token, aggregated
 * over its DEX pairs as DEX Screener lists them.
 */

const TOP_PAIRS = 5

const tokenRef = vine
  .object({ address: vine.string(), name: vine.string().optional(), symbol: vine.string() })
  .allowUnknownProperties()
const buysAndSells = vine
  .object({ buys: vine.number(), sells: vine.number() })
  .allowUnknownProperties()

const tokenPairs = vine.create(
  vine.array(
    vine
      .object({
        chainId: vine.string(),
        dexId: vine.string(),
        url: vine.string().optional(),
        pairAddress: vine.string(),
        baseToken: tokenRef,
        quoteToken: tokenRef,
        priceNative: vine.number().nullable().optional(),
        priceUsd: vine.number().nullable().optional(),
        txns: vine
          .object({ h1: buysAndSells.optional(), h24: buysAndSells.optional() })
          .allowUnknownProperties()
          .optional(),
        volume: vine.object({ h24: vine.number().optional() }).allowUnknownProperties().optional(),
        priceChange: vine
          .object({ h24: vine.number().nullable().optional() })
          .allowUnknownProperties()
          .optional(),
        liquidity: vine
          .object({ usd: vine.number().optional() })
          .allowUnknownProperties()
          .optional(),
      })
      .allowUnknownProperties()
  )
)

const knownChain = vine.createRule((value: unknown, _options: undefined, field: FieldContext) => {
  if (!(TOKEN_INTEL_CHAINS as readonly unknown[]).includes(value)) {
    field.report(`chain must be one of: ${TOKEN_INTEL_CHAINS.join(', ')}`, 'knownChain', field)
  }
})

export function intelSignal(buys: number, sells: number) {
  if (buys === 0 && sells === 0) return 'NEUTRAL'
  if (sells === 0) return 'STRONG_BUY'
  const ratio = buys / sells
  if (ratio > 2) return 'STRONG_BUY'
  if (ratio > 1.2) return 'BUY'
  if (ratio < 0.5) return 'STRONG_SELL'
  if (ratio < 0.8) return 'SELL'
  return 'NEUTRAL'
}

export default defineAdapter({
  upstreams: ['dexscreener'],
  query: vine.create({
    address: evmAddress(),
    chain: vine.string().trim().toLowerCase().use(knownChain()).optional(),
  }),
  async fetch(ctx) {
    const chain = ctx.query.chain ?? 'ethereum'
    const address = ctx.query.address
    const answer = await ctx.http.getJson(
      'dexscreener',
      `/tokens/v1/${chain}/${address}`,
      tokenPairs
    )

    // A pair lists our token as base or quote. DEX Screener counts buys and
    // sells of the base token, so on the quote side they swap roles, and the
    // token's USD price is the base price divided by priceNative.
    const pairs = answer.flatMap((pair) => {
      const side =
        pair.baseToken.address.toLowerCase() === address
          ? ('base' as const)
          : pair.quoteToken.address.toLowerCase() === address
            ? ('quote' as const)
            : undefined
      if (!side || pair.chainId !== chain) return []
      const h24 = pair.txns?.h24 ?? { buys: 0, sells: 0 }
      const h1 = pair.txns?.h1 ?? { buys: 0, sells: 0 }
      const basePrice = pair.priceUsd ?? null
      const price =
        basePrice === null
          ? null
          : side === 'base'
            ? basePrice
            : pair.priceNative
              ? basePrice / pair.priceNative
              : null
      return [
        {
          pair,
          side,
          token: side === 'base' ? pair.baseToken : pair.quoteToken,
          other: side === 'base' ? pair.quoteToken : pair.baseToken,
          buys: side === 'base' ? h24.buys : h24.sells,
          sells: side === 'base' ? h24.sells : h24.buys,
          buys1h: side === 'base' ? h1.buys : h1.sells,
          sells1h: side === 'base' ? h1.sells : h1.buys,
          volumeUsd: pair.volume?.h24 ?? 0,
          liquidityUsd: pair.liquidity?.usd ?? 0,
          priceUsd: price,
        },
      ]
    })

    if (pairs.length === 0) {
      return {
        found: false,
        address,
        chain,
        token: null,
        pair_count: 0,
        buys: 0,
        sells: 0,
        buy_sell_ratio: null,
        last_hour: { buys: 0, sells: 0 },
        volume_24h_usd: 0,
        liquidity_usd: 0,
        price_usd: null,
        price_change_24h: null,
        signal: 'NEUTRAL',
        top_pairs: [],
      }
    }

    const sum = (pick: (pair: (typeof pairs)[number]) => number) =>
      pairs.reduce((total, pair) => total + pick(pair), 0)
    const buys = sum((pair) => pair.buys)
    const sells = sum((pair) => pair.sells)
    const byLiquidity = [...pairs].sort((a, b) => b.liquidityUsd - a.liquidityUsd)
    const priced = byLiquidity.find((pair) => pair.priceUsd !== null)
    const asBase = byLiquidity.find((pair) => pair.side === 'base')
    const change = asBase?.pair.priceChange?.h24 ?? null

    return {
      found: true,
      address,
      chain,
      token: {
        address,
        symbol: byLiquidity[0].token.symbol,
        name: byLiquidity[0].token.name ?? null,
      },
      pair_count: pairs.length,
      buys,
      sells,
      buy_sell_ratio: sells === 0 ? null : round2(buys / sells),
      last_hour: { buys: sum((pair) => pair.buys1h), sells: sum((pair) => pair.sells1h) },
      volume_24h_usd: round2(sum((pair) => pair.volumeUsd)),
      liquidity_usd: round2(sum((pair) => pair.liquidityUsd)),
      price_usd: priced?.priceUsd ? roundPrice(priced.priceUsd) : null,
      price_change_24h: change === null ? null : round2(change),
      signal: intelSignal(buys, sells),
      top_pairs: byLiquidity.slice(0, TOP_PAIRS).map((pair) => ({
        pair_address: pair.pair.pairAddress,
        dex: pair.pair.dexId,
        pair: `${pair.pair.baseToken.symbol}/${pair.pair.quoteToken.symbol}`,
        paired_with: pair.other.symbol,
        price_usd: pair.priceUsd === null ? null : roundPrice(pair.priceUsd),
        liquidity_usd: round2(pair.liquidityUsd),
        volume_24h_usd: round2(pair.volumeUsd),
        buys: pair.buys,
        sells: pair.sells,
        url: pair.pair.url ?? null,
      })),
    }
  },
})
