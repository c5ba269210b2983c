import {
  array,
  boolean,
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
    alerts: array(
      object({
        id: string,
        txid: string,
        type: string,
        amount_btc: number,
        amount_usd: number,
        from: object({ address: string, label: string }),
        to: object({ address: string, label: string }),
        significance: string,
        fee_sats: integer,
        confirmed: boolean,
        block_height: nullable(integer),
        timestamp: timestamp,
      })
    ),
    summary: object({
      alert_count: integer,
      total_volume_btc: number,
      total_volume_usd: number,
      most_active: string,
      by_type: object({ transfer: integer, exchange_inflow: integer, exchange_outflow: integer }),
      by_significance: object({ high: integer, critical: integer, extreme: integer }),
    }),
    btc_price_usd: number,
    threshold_btc: number,
    scanned: object({
      blocks: array(integer),
      block_transactions: integer,
      mempool_transactions: integer,
    }),
    data_source: string,
  }),
  example: {
    alerts: [
      {
        id: 'ffbdaf7b88e8022d2bfc7bbb0fefbf99b8c7372f3d04a624b9d9c87843ee0205',
        txid: 'ffbdaf7b88e8022d2bfc7bbb0fefbf99b8c7372f3d04a624b9d9c87843ee0205',
        type: 'transfer',
        amount_btc: 8381.31755311,
        amount_usd: 821861103.55,
        from: {
          address: 'bc1qwnvvvgcpz0ymq4e46dsd04kqh0p27mklv05edt',
          label: 'unknown wallet',
        },
        to: {
          address: 'bc1qpqvyehm4hl7ck4sn47395kyfwxmmtxkv0h6c03',
          label: 'unknown wallet',
        },
        significance: 'extreme',
        fee_sats: 5016,
        confirmed: true,
        block_height: 975555,
        timestamp: '2026-11-25T18:52:39.000Z',
      },
      {
        id: 'fe3491ab8922e374df25ef354031661e41522b7884c0ecb55f0365b90f95d3af',
        txid: 'fe3491ab8922e374df25ef354031661e41522b7884c0ecb55f0365b90f95d3af',
        type: 'exchange_inflow',
        amount_btc: 7863.15687259,
        amount_usd: 771050940.82,
        from: {
          address: 'bc1qkc3l9w2vh566e6v7v372uum78w05mu4vqkvxpz',
          label: 'unknown wallet',
        },
        to: {
          address: '3M219KR5vEneNb47ewrPfWyb5jQ2DjxRP6',
          label: 'Binance',
        },
        significance: 'extreme',
        fee_sats: 3570,
        confirmed: true,
        block_height: 975555,
        timestamp: '2026-11-25T18:52:39.000Z',
      },
    ],
    summary: {
      alert_count: 22,
      total_volume_btc: 53320.43198408,
      total_volume_usd: 5228532243.8,
      most_active: 'Binance',
      by_type: {
        transfer: 10,
        exchange_inflow: 5,
        exchange_outflow: 7,
      },
      by_significance: {
        high: 10,
        critical: 7,
        extreme: 5,
      },
    },
    btc_price_usd: 98058.7,
    threshold_btc: 100,
    scanned: {
      blocks: [975556, 975555],
      block_transactions: 100,
      mempool_transactions: 10,
    },
    data_source: 'mempool.space (latest blocks and mempool), CoinGecko (BTC/USD)',
  },
} satisfies BuiltinDeclaration
