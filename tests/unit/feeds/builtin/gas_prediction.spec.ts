import { test } from '@japa/runner'
import adapter from '#feeds/builtin/adapters/gas_prediction'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

interface FeeHistory {
  baseFeePerGas: string[]
  gasUsedRatio: number[]
  reward: string[][]
}

interface Mempool {
  count: number
  vsize: number
  total_fee: number
  fee_histogram: [number, number][]
}

const gwei = (hex: string) => Number(BigInt(hex)) / 1e9
const round4 = (value: number) => Number(value.toFixed(4))
function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function useRaw(upstreams: ReturnType<typeof useUpstreamSimulator>) {
  const get = async <T>(path: string) =>
    fetch(`${upstreams.simulator().url}${path}`).then((response) => response.json()) as Promise<T>
  const feeHistory = async () => {
    const response = await fetch(`${upstreams.simulator().url}/ethereum_rpc/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'eth_feeHistory',
        params: [20, 'latest', [10, 50, 90]],
        id: 1,
      }),
    })
    return ((await response.json()) as { result: FeeHistory }).result
  }
  return { get, feeHistory }
}

test.group('Built-in feed gas-prediction', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const raw = useRaw(upstreams)

  test('prices each Ethereum speed from the fee-history tip percentiles', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const history = await raw.feeHistory()
    const nextBaseFee = gwei(history.baseFeePerGas.at(-1)!)

    assert.deepEqual(
      data.ethereum.map((entry: any) => entry.speed),
      ['slow', 'standard', 'fast']
    )
    data.ethereum.forEach((entry: any, index: number) => {
      const tip = median(history.reward.map((tips) => gwei(tips[index])))
      assert.equal(entry.max_priority_fee_gwei, round4(tip))
      assert.equal(entry.gas_price_gwei, round4(nextBaseFee + tip))
      assert.equal(entry.max_fee_gwei, round4(2 * nextBaseFee + tip))
    })
    assert.equal(data.ethereum_network.next_base_fee_gwei, round4(nextBaseFee))
    assert.isBelow(data.ethereum[0].gas_price_gwei, data.ethereum[2].gas_price_gwei)
  })

  test('estimates Ethereum inclusion from how often a tip beat a block’s cheapest tenth', async ({
    assert,
  }) => {
    const data = (await upstreams.run(adapter)) as any
    const history = await raw.feeHistory()
    const lowest = history.reward.map((tips) => gwei(tips[0]))

    data.ethereum.forEach((entry: any, index: number) => {
      const tip = median(history.reward.map((tips) => gwei(tips[index])))
      const share = lowest.filter((cheapest) => tip >= cheapest).length / lowest.length
      const blocks = share === 0 ? 20 : Math.min(20, Math.ceil(1 / share))
      assert.equal(entry.estimated_seconds, blocks * 12, entry.speed)
    })
    assert.equal(data.ethereum[2].estimated_seconds, 12)
  })

  test('estimates Bitcoin confirmation from the fee histogram ahead of each rate', async ({
    assert,
  }) => {
    const data = (await upstreams.run(adapter)) as any
    const fees = await raw.get<Record<string, number>>('/mempool/api/v1/fees/recommended')
    const mempool = await raw.get<Mempool>('/mempool/api/mempool')

    assert.deepEqual(
      data.bitcoin.map((entry: any) => [entry.priority, entry.fee_rate_sat_vb]),
      [
        ['high', fees.fastestFee],
        ['medium', fees.halfHourFee],
        ['low', fees.hourFee],
        ['no_priority', fees.economyFee],
        ['minimum', fees.minimumFee],
      ]
    )
    for (const entry of data.bitcoin) {
      const ahead = mempool.fee_histogram
        .filter(([rate]) => rate > entry.fee_rate_sat_vb)
        .reduce((sum, [, vsize]) => sum + vsize, 0)
      assert.equal(entry.estimated_minutes, (Math.floor(ahead / 1_000_000) + 1) * 10)
    }
    assert.equal(data.bitcoin[0].estimated_minutes, 10)
    assert.isAbove(data.bitcoin.at(-1).estimated_minutes, data.bitcoin[0].estimated_minutes)
  })

  test('reports the mempool backlog and a congestion level from its size', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const mempool = await raw.get<Mempool>('/mempool/api/mempool')

    assert.deepEqual(data.mempool_stats, {
      tx_count: mempool.count,
      vsize: mempool.vsize,
      total_fee_btc: Number((mempool.total_fee / 1e8).toFixed(8)),
      pending_blocks: Number((mempool.vsize / 1e6).toFixed(2)),
    })
    assert.isAbove(mempool.vsize, 20_000_000)
    assert.equal(data.congestion_level, 'severe')
  })

  test('an Ethereum RPC outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('ethereum_rpc', 'status_503')
    await assert.rejects(() => upstreams.run(adapter), UpstreamFailure)
  })

  test('a mempool.space outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('mempool', 'status_503')
    await assert.rejects(() => upstreams.run(adapter), UpstreamFailure)
  })
})

test.group('Built-in feed gas-prediction at a quiet moment', (group) => {
  const upstreams = useUpstreamSimulator(group, { now: () => 1_795_305_400_000 })
  const raw = useRaw(upstreams)

  test('a mempool under one block is low congestion and every rate confirms next block', async ({
    assert,
  }) => {
    const data = (await upstreams.run(adapter)) as any
    const mempool = await raw.get<Mempool>('/mempool/api/mempool')

    assert.isBelow(mempool.vsize, 1_000_000)
    assert.equal(data.congestion_level, 'low')
    assert.isTrue(data.bitcoin.every((entry: any) => entry.estimated_minutes === 10))
  })
})
