import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'
import { round } from '#feeds/builtin/rounding'

const SAMPLED_BLOCKS = 20
const PERCENTILES = [10, 50, 90] as const
const SPEEDS = ['slow', 'standard', 'fast'] as const
const SLOT_SECONDS = 12
const BITCOIN_BLOCK_VSIZE = 1_000_000
const BITCOIN_BLOCK_MINUTES = 10
/** Backlog thresholds, in blocks' worth (1 MvB) of pending transactions. */
const CONGESTION = [
  { below: 1, level: 'low' },
  { below: 5, level: 'moderate' },
  { below: 20, level: 'high' },
] as const

const quantity = () => vine.string().regex(/^0x[0-9a-fA-F]+$/)

const feeHistorySchema = vine.create(
  vine
    .object({
      result: vine
        .object({
          oldestBlock: quantity(),
          baseFeePerGas: vine.array(quantity()).minLength(2),
          gasUsedRatio: vine.array(vine.number().min(0)).minLength(1),
          reward: vine.array(vine.array(quantity()).fixedLength(PERCENTILES.length)).minLength(1),
        })
        .allowUnknownProperties(),
    })
    .allowUnknownProperties()
)
const gasPriceSchema = vine.create(vine.object({ result: quantity() }).allowUnknownProperties())

const recommendedSchema = vine.create(
  vine
    .object({
      fastestFee: vine.number().min(0),
      halfHourFee: vine.number().min(0),
      hourFee: vine.number().min(0),
      economyFee: vine.number().min(0),
      minimumFee: vine.number().min(0),
    })
    .allowUnknownProperties()
)
const mempoolSchema = vine.create(
  vine
    .object({
      count: vine.number().min(0),
      vsize: vine.number().min(0),
      total_fee: vine.number().min(0),
      fee_histogram: vine.array(vine.tuple([vine.number().min(0), vine.number().min(0)])),
    })
    .allowUnknownProperties()
)

const gwei = (hex: string) => Number(BigInt(hex)) / 1e9

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * Blocks until inclusion for a tip: 1 / the share of sampled blocks whose
 * 10th-percentile tip it matches (it would have outbid the cheapest tenth of
 * their gas), capped at the sample size.
 */
function blocksToInclusion(tip: number, lowestTips: number[]) {
  const share = lowestTips.filter((lowest) => tip >= lowest).length / lowestTips.length
  return share === 0 ? lowestTips.length : Math.min(lowestTips.length, Math.ceil(1 / share))
}

function congestionLevel(pendingBlocks: number) {
  return CONGESTION.find((step) => pendingBlocks < step.below)?.level ?? 'severe'
}

export default defineAdapter({
  upstreams: ['ethereum_rpc', 'mempool'],
  async fetch({ http }) {
    const rpc = (method: string, params: unknown[]) => ({
      method: 'POST' as const,
      body: { jsonrpc: '2.0', method, params, id: 1 },
    })
    const [history, gasPrice, recommended, mempool] = await Promise.all([
      http.getJson(
        'ethereum_rpc',
        '/',
        feeHistorySchema,
        rpc('eth_feeHistory', [SAMPLED_BLOCKS, 'latest', PERCENTILES])
      ),
      http.getJson('ethereum_rpc', '/', gasPriceSchema, rpc('eth_gasPrice', [])),
      http.getJson('mempool', '/api/v1/fees/recommended', recommendedSchema),
      http.getJson('mempool', '/api/mempool', mempoolSchema),
    ])

    const { baseFeePerGas, gasUsedRatio, reward, oldestBlock } = history.result
    const nextBaseFee = gwei(baseFeePerGas[baseFeePerGas.length - 1])
    const latestBaseFee = gwei(baseFeePerGas[baseFeePerGas.length - 2])
    const tipsAt = (index: number) => reward.map((tips) => gwei(tips[index]))
    const lowestTips = tipsAt(0)
    const ethereum = SPEEDS.map((speed, index) => {
      const tip = median(tipsAt(index))
      return {
        speed,
        gas_price_gwei: round(nextBaseFee + tip, 4),
        max_fee_gwei: round(2 * nextBaseFee + tip, 4),
        max_priority_fee_gwei: round(tip, 4),
        estimated_seconds: blocksToInclusion(tip, lowestTips) * SLOT_SECONDS,
      }
    })

    const histogram = mempool.fee_histogram
    const bitcoin = (
      [
        ['high', recommended.fastestFee],
        ['medium', recommended.halfHourFee],
        ['low', recommended.hourFee],
        ['no_priority', recommended.economyFee],
        ['minimum', recommended.minimumFee],
      ] as const
    ).map(([priority, rate]) => {
      const vsizeAhead = histogram
        .filter(([feeRate]) => feeRate > rate)
        .reduce((sum, [, vsize]) => sum + vsize, 0)
      const blocks = Math.floor(vsizeAhead / BITCOIN_BLOCK_VSIZE) + 1
      return {
        priority,
        fee_rate_sat_vb: rate,
        estimated_blocks: blocks,
        estimated_minutes: blocks * BITCOIN_BLOCK_MINUTES,
      }
    })
    const pendingBlocks = mempool.vsize / BITCOIN_BLOCK_VSIZE

    return {
      ethereum,
      ethereum_network: {
        latest_block: Number(BigInt(oldestBlock)) + gasUsedRatio.length - 1,
        base_fee_gwei: round(latestBaseFee, 4),
        next_base_fee_gwei: round(nextBaseFee, 4),
        avg_gas_used_pct: round(
          (gasUsedRatio.reduce((sum, ratio) => sum + ratio, 0) / gasUsedRatio.length) * 100,
          2
        ),
        node_gas_price_gwei: round(gwei(gasPrice.result), 4),
        blocks_sampled: gasUsedRatio.length,
      },
      bitcoin,
      mempool_stats: {
        tx_count: mempool.count,
        vsize: mempool.vsize,
        total_fee_btc: round(mempool.total_fee / 100_000_000, 8),
        pending_blocks: round(pendingBlocks, 2),
      },
      congestion_level: congestionLevel(pendingBlocks),
      data_source: 'Ethereum JSON-RPC (eth_feeHistory, eth_gasPrice), mempool.space',
    }
  },
})
