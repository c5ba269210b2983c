import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'
import { round2 } from '#feeds/builtin/rounding'
import { trackedWallets } from '#feeds/builtin/tracked_wallets'

/**
 * Perpetual-futures trades of the tracked wallets on Hyperliquid (an
 * on-chain order-book DEX) over the last 24 hours, from each wallet's fills.
 */

const WINDOW_HOURS = 24
const TOP_TRADES = 50

const userFills = vine.create(
  vine.array(
    vine
      .object({
        coin: vine.string(),
        px: vine.number(),
        sz: vine.number(),
        side: vine.enum(['B', 'A']),
        time: vine.number(),
        dir: vine.string(),
        closedPnl: vine.number(),
        hash: vine.string(),
      })
      .allowUnknownProperties()
  )
)

/** Spot fills name a pair index ("@107") or a pair ("PURR/USDC"); perpetuals a coin. */
function isPerpetual(coin: string) {
  return !coin.startsWith('@') && !coin.includes('/')
}

export default defineAdapter({
  upstreams: ['hyperliquid'],
  async fetch(ctx) {
    const wallets = trackedWallets(ctx.settings)
    const now = ctx.now()
    const since = now - WINDOW_HOURS * 3_600_000
    const answers = await Promise.all(
      wallets.map((wallet) =>
        ctx.http.getJson('hyperliquid', '/info', userFills, {
          method: 'POST',
          body: { type: 'userFills', user: wallet.address },
        })
      )
    )

    const fills = answers
      .flatMap((answer, index) =>
        answer
          .filter((fill) => fill.time >= since && fill.time <= now && isPerpetual(fill.coin))
          .map((fill) => ({ wallet: wallets[index], ...fill, notional: fill.px * fill.sz }))
      )
      .sort((a, b) => b.time - a.time)

    const notionalOf = (side: 'B' | 'A') =>
      fills.filter((fill) => fill.side === side).reduce((sum, fill) => sum + fill.notional, 0)
    const byCoin = new Map<string, number>()
    for (const fill of fills) byCoin.set(fill.coin, (byCoin.get(fill.coin) ?? 0) + fill.notional)
    const mostTraded = [...byCoin.entries()].sort((a, b) => b[1] - a[1])[0]

    return {
      trades: fills.slice(0, TOP_TRADES).map((fill) => ({
        wallet_label: fill.wallet.label,
        wallet_address: fill.wallet.address,
        coin: fill.coin,
        side: fill.side === 'B' ? 'buy' : 'sell',
        direction: fill.dir,
        price: fill.px,
        size: fill.sz,
        notional_usd: round2(fill.notional),
        time: new Date(fill.time).toISOString(),
        closed_pnl: round2(fill.closedPnl),
        tx_hash: fill.hash,
      })),
      summary: {
        trade_count: fills.length,
        total_notional_usd: round2(fills.reduce((sum, fill) => sum + fill.notional, 0)),
        long_notional_usd: round2(notionalOf('B')),
        short_notional_usd: round2(notionalOf('A')),
        most_traded_coin: mostTraded ? mostTraded[0] : null,
        realized_pnl_usd: round2(fills.reduce((sum, fill) => sum + fill.closedPnl, 0)),
        active_wallets: new Set(fills.map((fill) => fill.wallet.address)).size,
      },
      window_hours: WINDOW_HOURS,
      wallets_tracked: wallets.length,
      venue: 'hyperliquid',
    }
  },
})
