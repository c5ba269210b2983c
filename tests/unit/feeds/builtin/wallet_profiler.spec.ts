import { test } from '@japa/runner'
import { errors as vineErrors } from '@vinejs/vine'
import walletProfiler from '#feeds/builtin/adapters/wallet_profiler'
import { FRESH_ADDRESS } from '@tollbooth/upstream-simulator'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

const JUMP = '0x8103683202aa8da10536036edef04cdd865c225e'

interface AddressInfo {
  ETH: { balance: number; price: { rate: number } }
  tokens: {
    rawBalance: string
    tokenInfo: { decimals: string; price: false | { rate: number } }
  }[]
}

type Profile = {
  address: string
  chain: string
  total_value_usd: number
  token_count: number
  unpriced_token_count: number
  holdings: { token: string; amount: number; value_usd: number; allocation_pct: number }[]
  concentration: { top_3_pct: number; top_5_pct: number; diversification: string }
}

test.group('Wallet profiler', (group) => {
  const upstreams = useUpstreamSimulator(group)

  test('values ETH and priced tokens at Ethplorer prices, largest first', async ({ assert }) => {
    const response = await fetch(
      `${upstreams.simulator().url}/ethplorer/getAddressInfo/${JUMP}?apiKey=freekey`
    )
    const info = (await response.json()) as AddressInfo
    let total = info.ETH.balance * info.ETH.price.rate
    for (const held of info.tokens) {
      if (held.tokenInfo.price === false) continue
      total +=
        (Number(held.rawBalance) / 10 ** Number(held.tokenInfo.decimals)) *
        held.tokenInfo.price.rate
    }

    const profile = (await upstreams.run(walletProfiler, { address: JUMP })) as Profile

    assert.equal(profile.address, JUMP)
    assert.equal(profile.chain, 'ethereum')
    assert.closeTo(profile.total_value_usd, total, 0.01)
    assert.equal(profile.unpriced_token_count, 1)
    const pricedTokens = info.tokens.filter((held) => held.tokenInfo.price !== false)
    assert.equal(profile.token_count, 1 + pricedTokens.length, 'ETH and the priced tokens')
    assert.equal(profile.holdings.length, profile.token_count)
    const values = profile.holdings.map((holding) => holding.value_usd)
    assert.deepEqual(
      values,
      [...values].sort((a, b) => b - a)
    )
    const allocated = profile.holdings.reduce((sum, holding) => sum + holding.allocation_pct, 0)
    assert.closeTo(allocated, 100, 0.05)
  })

  test('measures concentration from the largest holdings', async ({ assert }) => {
    const profile = (await upstreams.run(walletProfiler, { address: JUMP })) as Profile
    const share = (count: number) =>
      profile.holdings.slice(0, count).reduce((sum, holding) => sum + holding.allocation_pct, 0)

    assert.closeTo(profile.concentration.top_3_pct, share(3), 0.02)
    assert.closeTo(profile.concentration.top_5_pct, share(5), 0.03)
    const top3 = profile.concentration.top_3_pct
    const expected =
      top3 >= 90
        ? 'highly_concentrated'
        : top3 >= 70
          ? 'concentrated'
          : top3 >= 50
            ? 'moderate'
            : 'diversified'
    assert.equal(profile.concentration.diversification, expected)
  })

  test('answers an empty profile for an address that holds nothing', async ({ assert }) => {
    const profile = (await upstreams.run(walletProfiler, {
      address: FRESH_ADDRESS,
      chain: 'ethereum',
    })) as Profile

    assert.equal(profile.total_value_usd, 0)
    assert.deepEqual(profile.holdings, [])
    assert.deepEqual(profile.concentration, {
      top_3_pct: 0,
      top_5_pct: 0,
      diversification: 'empty',
    })
  })

  test('refuses a malformed address and any chain but ethereum', async ({ assert }) => {
    await assert.rejects(
      () => walletProfiler.query!.validate({ address: 'vitalik.eth' }),
      vineErrors.E_VALIDATION_ERROR
    )
    await assert.rejects(
      () => walletProfiler.query!.validate({ address: `${JUMP}00` }),
      vineErrors.E_VALIDATION_ERROR
    )
    try {
      await walletProfiler.query!.validate({ address: JUMP, chain: 'bsc' })
      assert.fail('chain=bsc should be refused')
    } catch (error) {
      assert.match(
        JSON.stringify((error as { messages: unknown }).messages),
        /Ethereum mainnet only/
      )
    }

    const query = await walletProfiler.query!.validate({
      address: JUMP.toUpperCase().replace('0X', '0x'),
      chain: 'Ethereum',
    })
    assert.deepEqual(query, { address: JUMP, chain: 'ethereum' })
  })

  test('fails with UpstreamFailure when Ethplorer is down', async ({ assert }) => {
    upstreams.simulator().failNext('ethplorer', 'status_503')
    await assert.rejects(() => upstreams.run(walletProfiler, { address: JUMP }), UpstreamFailure)
  })
})
