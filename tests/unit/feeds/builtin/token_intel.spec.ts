import { test } from '@japa/runner'
import { errors as vineErrors } from '@vinejs/vine'
import tokenIntel, { intelSignal } from '#feeds/builtin/adapters/token_intel'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

const PEPE = '0x6982508145454ce325ddbe47a25d4ec3d2311933'
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'

interface Pair {
  baseToken: { address: string }
  quoteToken: { address: string }
  txns: { h24: { buys: number; sells: number } }
  volume: { h24: number }
  liquidity: { usd: number }
}

type Intel = {
  found: boolean
  token: { symbol: string } | null
  pair_count: number
  buys: number
  sells: number
  buy_sell_ratio: number | null
  volume_24h_usd: number
  liquidity_usd: number
  price_usd: number | null
  price_change_24h: number | null
  signal: string
  top_pairs: { pair_address: string; buys: number; sells: number; liquidity_usd: number }[]
}

test.group('Token intel', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const pairsOf = async (chain: string, address: string) => {
    const response = await fetch(
      `${upstreams.simulator().url}/dexscreener/tokens/v1/${chain}/${address}`
    )
    return (await response.json()) as Pair[]
  }

  test('aggregates buys, sells, volume and liquidity over all pairs of the token', async ({
    assert,
  }) => {
    const pairs = await pairsOf('ethereum', PEPE)
    const buys = pairs.reduce((sum, pair) => sum + pair.txns.h24.buys, 0)
    const sells = pairs.reduce((sum, pair) => sum + pair.txns.h24.sells, 0)
    const volume = pairs.reduce((sum, pair) => sum + pair.volume.h24, 0)
    const liquidity = pairs.reduce((sum, pair) => sum + pair.liquidity.usd, 0)

    const intel = (await upstreams.run(tokenIntel, { address: PEPE, chain: 'ethereum' })) as Intel

    assert.isTrue(intel.found)
    assert.equal(intel.token?.symbol, 'PEPE')
    assert.equal(intel.pair_count, pairs.length)
    assert.equal(intel.buys, buys)
    assert.equal(intel.sells, sells)
    assert.equal(intel.buy_sell_ratio, Math.round((buys / sells) * 100) / 100)
    assert.closeTo(intel.volume_24h_usd, volume, 0.01)
    assert.closeTo(intel.liquidity_usd, liquidity, 0.01)
    assert.isAbove(intel.price_usd!, 0)
    assert.isNumber(intel.price_change_24h)
    assert.equal(intel.signal, intelSignal(buys, sells))
    assert.isAtMost(intel.top_pairs.length, 5)
    assert.isAtLeast(intel.top_pairs[0].liquidity_usd, intel.top_pairs.at(-1)!.liquidity_usd)
  })

  test('counts buys of the base token as sells of a quote-side token', async ({ assert }) => {
    const pairs = await pairsOf('ethereum', WETH)
    const quoteSide = pairs.filter((pair) => pair.quoteToken.address.toLowerCase() === WETH)
    assert.isNotEmpty(quoteSide, 'the fixture should list WETH as a quote token')
    let buys = 0
    for (const pair of pairs) {
      const isBase = pair.baseToken.address.toLowerCase() === WETH
      buys += isBase ? pair.txns.h24.buys : pair.txns.h24.sells
    }

    const intel = (await upstreams.run(tokenIntel, {
      address: WETH.toUpperCase().replace('0X', '0x'),
      chain: 'ethereum',
    })) as Intel

    assert.equal(intel.buys, buys)
    assert.closeTo(intel.price_usd!, 3_450, 3_450 * 0.1)
  })

  test('answers found: false with empty figures for a token without pairs', async ({ assert }) => {
    const intel = (await upstreams.run(tokenIntel, {
      address: '0x00000000000000000000000000000000000000aa',
      chain: 'base',
    })) as Intel

    assert.isFalse(intel.found)
    assert.isNull(intel.token)
    assert.equal(intel.pair_count, 0)
    assert.isNull(intel.buy_sell_ratio)
    assert.isNull(intel.price_usd)
    assert.equal(intel.signal, 'NEUTRAL')
    assert.deepEqual(intel.top_pairs, [])
  })

  test('signals by buy/sell ratio: > 2, > 1.2, < 0.8, < 0.5', ({ assert }) => {
    assert.equal(intelSignal(201, 100), 'STRONG_BUY')
    assert.equal(intelSignal(200, 100), 'BUY')
    assert.equal(intelSignal(120, 100), 'NEUTRAL')
    assert.equal(intelSignal(80, 100), 'NEUTRAL')
    assert.equal(intelSignal(79, 100), 'SELL')
    assert.equal(intelSignal(49, 100), 'STRONG_SELL')
    assert.equal(intelSignal(5, 0), 'STRONG_BUY')
    assert.equal(intelSignal(0, 0), 'NEUTRAL')
  })

  test('refuses a malformed address or a chain outside the list', async ({ assert }) => {
    await assert.rejects(
      () => tokenIntel.query!.validate({ address: '0x1234', chain: 'ethereum' }),
      vineErrors.E_VALIDATION_ERROR
    )
    await assert.rejects(
      () => tokenIntel.query!.validate({ address: PEPE, chain: 'solana' }),
      vineErrors.E_VALIDATION_ERROR
    )
    await assert.rejects(
      () => tokenIntel.query!.validate({ chain: 'ethereum' }),
      vineErrors.E_VALIDATION_ERROR
    )

    const query = await tokenIntel.query!.validate({
      address: ` ${PEPE.toUpperCase().replace('0X', '0x')} `,
      chain: 'Base',
    })
    assert.deepEqual(query, { address: PEPE, chain: 'base' })
  })

  test('fails with UpstreamFailure when DEX Screener is down', async ({ assert }) => {
    upstreams.simulator().failNext('dexscreener', 'status_503')
    await assert.rejects(() => upstreams.run(tokenIntel, { address: PEPE }), UpstreamFailure)
  })
})
