import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'
import { round2 } from '#feeds/builtin/rounding'

const fearGreedSchema = vine.create(
  vine
    .object({
      data: vine
        .array(
          vine
            .object({
              value: vine.number().min(0).max(100),
              value_classification: vine.string(),
              timestamp: vine.number(),
            })
            .allowUnknownProperties()
        )
        .minLength(1),
    })
    .allowUnknownProperties()
)

const count = () => vine.number().min(0).nullable().optional()

const bitcoinSchema = vine.create(
  vine
    .object({
      sentiment_votes_up_percentage: vine.number().min(0).max(100).nullable(),
      market_data: vine
        .object({
          current_price: vine.object({ usd: vine.number().positive() }).allowUnknownProperties(),
          price_change_percentage_24h: vine.number().nullable(),
        })
        .allowUnknownProperties(),
      community_data: vine
        .object({
          twitter_followers: count(),
          reddit_subscribers: count(),
          reddit_average_posts_48h: count(),
          reddit_average_comments_48h: count(),
          reddit_accounts_active_48h: count(),
        })
        .allowUnknownProperties()
        .optional(),
    })
    .allowUnknownProperties()
)

const globalSchema = vine.create(
  vine
    .object({
      data: vine
        .object({
          market_cap_percentage: vine
            .object({ btc: vine.number().min(0).max(100) })
            .allowUnknownProperties(),
        })
        .allowUnknownProperties(),
    })
    .allowUnknownProperties()
)

/** A 0–100 reading on the −100…100 scale of overall_score. */
const toScore = (percent: number) => Math.round((percent / 100) * 200 - 100)

export function overallLabel(score: number) {
  if (score <= -50) return 'extreme_fear'
  if (score <= -10) return 'fear'
  if (score < 10) return 'neutral'
  if (score < 50) return 'greed'
  return 'extreme_greed'
}

export function marketTrend(score: number) {
  if (score > 20) return 'bullish'
  if (score < -20) return 'bearish'
  return 'neutral'
}

/**
 * A social network's entry. No free API reports per-network sentiment, so
 * the score is CoinGecko's community vote sentiment and the volume is what
 * CoinGecko measures on that network; without data it is marked unavailable.
 */
function social(communityScore: number | null, volume: number, extra: Record<string, number>) {
  const available = communityScore !== null && volume > 0
  return {
    score: available ? communityScore : 0,
    volume: available ? Math.round(volume) : 0,
    available,
    ...extra,
  }
}

export default defineAdapter({
  upstreams: ['alternative_me', 'coingecko'],
  async fetch({ http }) {
    const [fearGreed, bitcoin, global] = await Promise.all([
      http.getJson('alternative_me', '/fng/?limit=2', fearGreedSchema),
      http.getJson(
        'coingecko',
        '/api/v3/coins/bitcoin?localization=false&tickers=false&community_data=true&developer_data=false',
        bitcoinSchema
      ),
      http.getJson('coingecko', '/api/v3/global', globalSchema),
    ])

    const [today, yesterday] = fearGreed.data
    const index = Math.round(today.value)
    const overallScore = toScore(index)
    const votesUp = bitcoin.sentiment_votes_up_percentage
    const communityScore = votesUp === null ? null : toScore(votesUp)
    const community = bitcoin.community_data
    const followers = community?.twitter_followers ?? 0
    const redditActivity =
      (community?.reddit_average_posts_48h ?? 0) + (community?.reddit_average_comments_48h ?? 0)

    return {
      fear_greed_index: index,
      fear_greed_classification: today.value_classification,
      fear_greed_previous: yesterday ? Math.round(yesterday.value) : null,
      fear_greed_change: yesterday ? index - Math.round(yesterday.value) : null,
      overall_label: overallLabel(overallScore),
      overall_score: overallScore,
      btc_price_usd: round2(bitcoin.market_data.current_price.usd),
      btc_24h_change: round2(bitcoin.market_data.price_change_percentage_24h ?? 0),
      btc_dominance: round2(global.data.market_cap_percentage.btc),
      market_trend: marketTrend(overallScore),
      community_sentiment: {
        score: communityScore,
        votes_up_percentage: votesUp === null ? null : round2(votesUp),
      },
      sources: {
        x: social(communityScore, followers, { followers: Math.round(followers) }),
        reddit: social(communityScore, redditActivity, {
          subscribers: Math.round(community?.reddit_subscribers ?? 0),
          active_accounts_48h: Math.round(community?.reddit_accounts_active_48h ?? 0),
        }),
        // No free news API is available (CoinGecko's /news is paid-plan only): nothing is invented.
        news: { score: 0, article_count: 0, headlines: [] as string[], available: false },
      },
      index_date: new Date(today.timestamp * 1000).toISOString(),
      data_source: 'alternative.me Fear & Greed Index, CoinGecko (bitcoin, global)',
    }
  },
})
