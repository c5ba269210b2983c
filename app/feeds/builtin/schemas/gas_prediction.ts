import { array, integer, number, object, string } from '#feeds/builtin/schemas/json_schema'
import type { BuiltinDeclaration } from '#feeds/builtin/catalog'

export default {
  data: object({
    ethereum: array(
      object({
        speed: string,
        gas_price_gwei: number,
        max_fee_gwei: number,
        max_priority_fee_gwei: number,
        estimated_seconds: integer,
      })
    ),
    ethereum_network: object({
      latest_block: integer,
      base_fee_gwei: number,
      next_base_fee_gwei: number,
      avg_gas_used_pct: number,
      node_gas_price_gwei: number,
      blocks_sampled: number,
    }),
    bitcoin: array(
      object({
        priority: string,
        fee_rate_sat_vb: number,
        estimated_blocks: integer,
        estimated_minutes: integer,
      })
    ),
    mempool_stats: object({
      tx_count: integer,
      vsize: integer,
      total_fee_btc: number,
      pending_blocks: number,
    }),
    congestion_level: string,
    data_source: string,
  }),
  example: {
    ethereum: [
      {
        speed: 'slow',
        gas_price_gwei: 0.4,
        max_fee_gwei: 0.6518,
        max_priority_fee_gwei: 0.1483,
        estimated_seconds: 24,
      },
      {
        speed: 'standard',
        gas_price_gwei: 0.901,
        max_fee_gwei: 1.1527,
        max_priority_fee_gwei: 0.6492,
        estimated_seconds: 12,
      },
    ],
    ethereum_network: {
      latest_block: 23927820,
      base_fee_gwei: 0.2382,
      next_base_fee_gwei: 0.2517,
      avg_gas_used_pct: 47.79,
      node_gas_price_gwei: 1.2684,
      blocks_sampled: 20,
    },
    bitcoin: [
      {
        priority: 'high',
        fee_rate_sat_vb: 4,
        estimated_blocks: 1,
        estimated_minutes: 10,
      },
      {
        priority: 'medium',
        fee_rate_sat_vb: 2,
        estimated_blocks: 1,
        estimated_minutes: 10,
      },
    ],
    mempool_stats: {
      tx_count: 7633,
      vsize: 1389164,
      total_fee_btc: 0.04913132,
      pending_blocks: 1.39,
    },
    congestion_level: 'moderate',
    data_source: 'Ethereum JSON-RPC (eth_feeHistory, eth_gasPrice), mempool.space',
  },
} satisfies BuiltinDeclaration
