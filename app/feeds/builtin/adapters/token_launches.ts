import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'
import { round } from '#feeds/builtin/rounding'

const tokenFields = {
  url: vine.string(),
  chainId: vine.string(),
  tokenAddress: vine.string(),
  description: vine.string().nullable().optional(),
  links: vine
    .array(
      vine
        .object({
          type: vine.string().nullable().optional(),
          label: vine.string().nullable().optional(),
          url: vine.string().nullable().optional(),
        })
        .allowUnknownProperties()
    )
    .nullable()
    .optional(),
}

const boostsSchema = vine.create(
  vine.array(
    vine
      .object({
        ...tokenFields,
        amount: vine.number().nullable().optional(),
        totalAmount: vine.number().nullable().optional(),
      })
      .allowUnknownProperties()
  )
)

const profilesSchema = vine.create(vine.array(vine.object(tokenFields).allowUnknownProperties()))

type Token = Awaited<ReturnType<typeof profilesSchema.validate>>[number]
type Boost = Awaited<ReturnType<typeof boostsSchema.validate>>[number]

const TOP_BOOSTED = 15
const TOP_PROFILES = 15
const DESCRIPTION_MAX = 200

// EVM addresses are case-insensitive; Solana's base58 ones are not.
const keyOf = (token: Token) =>
  `${token.chainId}:${token.tokenAddress.startsWith('0x') ? token.tokenAddress.toLowerCase() : token.tokenAddress}`

function describe(token: Token) {
  const text = token.description?.trim()
  if (!text) return null
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1)}…` : text
}

/** Website and social links, by kind ("website", "twitter", "telegram", …). */
function linksOf(token: Token) {
  const links: Record<string, string> = {}
  for (const link of token.links ?? []) {
    const kind = (link.type ?? link.label ?? 'link').toLowerCase()
    if (link.url && !(kind in links)) links[kind] = link.url
  }
  return links
}

export default defineAdapter({
  upstreams: ['dexscreener'],
  async fetch({ http }) {
    const [latestBoosts, topBoosts, profiles] = await Promise.all([
      http.getJson('dexscreener', '/token-boosts/latest/v1', boostsSchema),
      http.getJson('dexscreener', '/token-boosts/top/v1', boostsSchema),
      http.getJson('dexscreener', '/token-profiles/latest/v1', profilesSchema),
    ])

    // One entry per token; a token in both boost lists keeps its largest active total.
    const boosted = new Map<string, { token: Boost; total: number; latest: number | null }>()
    for (const [list, isLatest] of [
      [topBoosts, false],
      [latestBoosts, true],
    ] as const) {
      for (const token of list) {
        const key = keyOf(token)
        const total = token.totalAmount ?? token.amount ?? 0
        const entry = boosted.get(key) ?? { token, total: 0, latest: null }
        entry.total = Math.max(entry.total, total)
        if (isLatest) entry.latest = token.amount ?? null
        boosted.set(key, entry)
      }
    }
    const profiled = new Map(profiles.map((token) => [keyOf(token), token]))

    const boostedTokens = [...boosted.entries()]
      .sort((a, b) => b[1].total - a[1].total)
      .map(([key, { token, total, latest }]) => {
        const links = linksOf(token)
        return {
          chain: token.chainId,
          token_address: token.tokenAddress,
          url: token.url,
          total_boost_amount: total,
          latest_boost_amount: latest,
          recently_boosted: latest !== null,
          has_new_profile: profiled.has(key),
          description: describe(token),
          links,
        }
      })

    const newProfiles = profiles.map((token) => {
      const links = linksOf(token)
      const entry = boosted.get(keyOf(token))
      return {
        chain: token.chainId,
        token_address: token.tokenAddress,
        url: token.url,
        description: describe(token),
        links,
        has_website: 'website' in links,
        social_count: Object.keys(links).filter((kind) => kind !== 'website').length,
        boosted: entry !== undefined,
        total_boost_amount: entry?.total ?? 0,
      }
    })

    const chains = new Map<string, { boosted: number; profiles: number; boostAmount: number }>()
    const chainEntry = (chain: string) => {
      const entry = chains.get(chain) ?? { boosted: 0, profiles: 0, boostAmount: 0 }
      chains.set(chain, entry)
      return entry
    }
    for (const token of boostedTokens) {
      const entry = chainEntry(token.chain)
      entry.boosted += 1
      entry.boostAmount += token.total_boost_amount
    }
    for (const token of newProfiles) chainEntry(token.chain).profiles += 1
    const distinct = new Set([...boosted.keys(), ...profiled.keys()]).size
    const tokensOn = (chain: string) =>
      new Set([...boosted.keys(), ...profiled.keys()].filter((key) => key.startsWith(`${chain}:`)))
        .size
    const totalBoost = boostedTokens.reduce((sum, token) => sum + token.total_boost_amount, 0)

    const trendingChains = [...chains.entries()]
      .map(([chain, entry]) => {
        const tokens = tokensOn(chain)
        return {
          chain,
          tokens,
          boosted_tokens: entry.boosted,
          new_profiles: entry.profiles,
          total_boost_amount: entry.boostAmount,
          share_pct: distinct > 0 ? round((tokens / distinct) * 100) : 0,
        }
      })
      .sort((a, b) => b.tokens - a.tokens || b.total_boost_amount - a.total_boost_amount)

    return {
      summary: {
        distinct_tokens: distinct,
        boosted_tokens: boostedTokens.length,
        recently_boosted: boostedTokens.filter((token) => token.recently_boosted).length,
        new_profiles: newProfiles.length,
        boosted_with_new_profile: boostedTokens.filter((token) => token.has_new_profile).length,
        total_active_boosts: totalBoost,
        top_chain: trendingChains[0]?.chain ?? null,
      },
      boosted_tokens: boostedTokens.slice(0, TOP_BOOSTED),
      new_profiles: newProfiles.slice(0, TOP_PROFILES),
      trending_chains: trendingChains,
      data_source: 'DEX Screener token boosts and token profiles',
    }
  },
})
