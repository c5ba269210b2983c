import {
  array,
  integer,
  nullable,
  number,
  object,
  string,
  timestamp,
} from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

export default {
  data: object({
    trades: array(
      object({
        wallet_label: string,
        wallet_address: string,
        coin: string,
        side: string,
        direction: string,
        price: number,
        size: number,
        notional_usd: number,
        time: timestamp,
        closed_pnl: number,
        tx_hash: string,
      })
    ),
    summary: object({
      trade_count: integer,
      total_notional_usd: number,
      long_notional_usd: number,
      short_notional_usd: number,
      most_traded_coin: nullable(string),
      realized_pnl_usd: number,
      active_wallets: integer,
    }),
    window_hours: integer,
    wallets_tracked: integer,
    venue: string,
  }),
  example: {
    trades: [
      {
        wallet_label: 'Jump Trading',
        wallet_address: '0x8103683202aa8da10536036edef04cdd865c225e',
        coin: 'BTC',
        side: 'buy',
        direction: 'Close Short',
        price: 101690,
        size: 0.39085,
        notional_usd: 39745.54,
        time: '2026-11-25T19:09:35.920Z',
        closed_pnl: 1344.14,
        tx_hash: '0xb1b9c6ddc180dc54f6f26629779e74ee748b33c4f7c9ae2d7f373ab932363d23',
      },
      {
        wallet_label: 'Binance 8',
        wallet_address: '0xf977814e90da44bfa03b6295a0616a897441acec',
        coin: 'ETH',
        side: 'buy',
        direction: 'Close Short',
        price: 3510,
        size: 34.798,
        notional_usd: 122140.98,
        time: '2026-11-25T19:07:10.100Z',
        closed_pnl: 4594.89,
        tx_hash: '0x4475f63cdd25ce61bb335bd14670787c00881fc8f3d8fcad11bb8b57fb141cb4',
      },
    ],
    summary: {
      trade_count: 261,
      total_notional_usd: 60498843.43,
      long_notional_usd: 29164926.63,
      short_notional_usd: 31333916.81,
      most_traded_coin: 'DOGE',
      realized_pnl_usd: -14494.07,
      active_wallets: 3,
    },
    window_hours: 24,
    wallets_tracked: 3,
    venue: 'hyperliquid',
  },
} satisfies BuiltinDeclaration
