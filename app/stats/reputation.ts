export type Tier = 'diamond' | 'gold' | 'silver' | 'bronze' | 'unverified'

/**
 * The marketplace's reputation, 0–100, from its own records (docs/api.md):
 * volume (up to 40: 0.04 per paid call), speed (up to 30: 30 − avg ms / 50,
 * 0 until a call is served) and reliability (up to 30: uptime share).
 */
export function reputation(totalQueries: number, avgResponseMs: number, uptimePercent: number) {
  const volume = Math.min(40, 0.04 * totalQueries)
  const speed = totalQueries === 0 ? 0 : Math.max(0, 30 - avgResponseMs / 50)
  const reliability = (30 * uptimePercent) / 100
  const score = Math.round(Math.min(100, volume + speed + reliability))
  return { score, tier: tierOf(score) }
}

function tierOf(score: number): Tier {
  if (score >= 90) return 'diamond'
  if (score >= 75) return 'gold'
  if (score >= 50) return 'silver'
  if (score >= 25) return 'bronze'
  return 'unverified'
}
