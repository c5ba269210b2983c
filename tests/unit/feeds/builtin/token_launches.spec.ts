import { test } from '@japa/runner'
import adapter from '#feeds/builtin/adapters/token_launches'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

interface RawToken {
  chainId: string
  tokenAddress: string
  amount?: number
  totalAmount?: number
}

const keyOf = (token: RawToken) => `${token.chainId}:${token.tokenAddress.toLowerCase()}`

test.group('Built-in feed token-launches', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const run = () => upstreams.run(adapter)
  const raw = async (path: string) =>
    fetch(`${upstreams.simulator().url}/dexscreener${path}`).then((response) =>
      response.json()
    ) as Promise<RawToken[]>
  const rawLists = async () => ({
    latest: await raw('/token-boosts/latest/v1'),
    top: await raw('/token-boosts/top/v1'),
    profiles: await raw('/token-profiles/latest/v1'),
  })

  test('ranks boosted tokens by their active boost total, once per token', async ({ assert }) => {
    const data = (await run()) as any
    const { latest, top } = await rawLists()

    assert.isAtMost(data.boosted_tokens.length, 15)
    const totals = data.boosted_tokens.map((token: any) => token.total_boost_amount)
    assert.deepEqual(
      totals,
      [...totals].sort((a, b) => b - a)
    )
    assert.equal(totals[0], Math.max(...[...latest, ...top].map((token) => token.totalAmount!)))

    const keys = data.boosted_tokens.map((token: any) => `${token.chain}:${token.token_address}`)
    assert.equal(new Set(keys).size, keys.length)
    assert.equal(data.summary.boosted_tokens, new Set([...latest, ...top].map(keyOf)).size)
    assert.equal(data.summary.recently_boosted, new Set(latest.map(keyOf)).size)
  })

  test('marks new profiles that are also boosted', async ({ assert }) => {
    const data = (await run()) as any
    const { latest, top, profiles } = await rawLists()
    const boosted = new Set([...latest, ...top].map(keyOf))

    assert.lengthOf(data.new_profiles, 15)
    for (const profile of data.new_profiles) {
      assert.equal(
        profile.boosted,
        boosted.has(`${profile.chain}:${profile.token_address.toLowerCase()}`)
      )
    }
    assert.equal(
      data.summary.boosted_with_new_profile,
      profiles.filter((token) => boosted.has(keyOf(token))).length
    )
  })

  test('counts distinct tokens per chain to find the trending chains', async ({ assert }) => {
    const data = (await run()) as any
    const { latest, top, profiles } = await rawLists()
    const distinct = new Set([...latest, ...top, ...profiles].map(keyOf))
    const solana = [...distinct].filter((key) => key.startsWith('solana:')).length

    assert.equal(data.summary.distinct_tokens, distinct.size)
    assert.equal(data.summary.top_chain, 'solana')
    assert.equal(data.trending_chains[0].chain, 'solana')
    assert.equal(data.trending_chains[0].tokens, solana)
    const tokens = data.trending_chains.map((chain: any) => chain.tokens)
    assert.deepEqual(
      tokens,
      [...tokens].sort((a, b) => b - a)
    )
    assert.equal(
      tokens.reduce((sum: number, count: number) => sum + count, 0),
      distinct.size
    )
  })

  test('a DEX Screener outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('dexscreener', 'status_503')
    await assert.rejects(() => run(), UpstreamFailure)
  })
})
