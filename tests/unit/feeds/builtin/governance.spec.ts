import { test } from '@japa/runner'
import adapter from '#feeds/builtin/adapters/governance'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { useUpstreamSimulator } from '#tests/support/upstreams'

interface RawProposal {
  id: string
  space: { id: string }
  end: number
  choices: string[]
  scores: number[]
  scores_total: number
  votes: number
  quorum: number
}

const round = (value: number) => Number(value.toFixed(2))

test.group('Built-in feed governance', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const run = () => upstreams.run(adapter)
  const rawProposals = async (state: string) => {
    const response = await fetch(`${upstreams.simulator().url}/snapshot/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `query { proposals(first: 100, where: { state: "${state}" }) { id } }`,
      }),
    })
    return ((await response.json()) as { data: { proposals: RawProposal[] } }).data.proposals
  }

  test('names the leading choice of each active proposal and its share of the votes', async ({
    assert,
  }) => {
    const data = (await run()) as any
    const active = await rawProposals('active')

    assert.isAtMost(data.active_proposals.length, 10)
    assert.equal(data.summary.active_count, active.length)
    for (const proposal of data.active_proposals) {
      const source = active.find((entry) => entry.id === proposal.id)!
      assert.equal(proposal.votes, source.votes)
      if (source.scores_total === 0) {
        assert.isNull(proposal.leading_choice)
        continue
      }
      const best = source.scores.indexOf(Math.max(...source.scores))
      assert.equal(proposal.leading_choice, source.choices[best])
      assert.equal(
        proposal.leading_percentage,
        round((source.scores[best] / source.scores_total) * 100)
      )
    }
    const votes = data.active_proposals.map((proposal: any) => proposal.votes)
    assert.deepEqual(
      votes,
      [...votes].sort((a, b) => b - a)
    )
  })

  test('a closed proposal that was voted down reports "Against" as its leading choice', async ({
    assert,
  }) => {
    const data = (await run()) as any
    const shutter = data.recent_closed.find(
      (proposal: any) => proposal.space === 'shutterdao0x36.eth'
    )
    assert.equal(shutter.leading_choice, 'Against')
    assert.equal(shutter.leading_percentage, 78)
    assert.isTrue(shutter.quorum_reached)

    const ends = data.recent_closed.map((proposal: any) => Date.parse(proposal.end))
    assert.deepEqual(
      ends,
      [...ends].sort((a, b) => b - a)
    )
  })

  test('upcoming proposals have no leader yet and come soonest first', async ({ assert }) => {
    const data = (await run()) as any
    const pending = await rawProposals('pending')

    assert.lengthOf(data.upcoming, pending.length)
    for (const proposal of data.upcoming) {
      assert.isNull(proposal.leading_choice)
      assert.isNull(proposal.leading_percentage)
      assert.isAbove(proposal.hours_until_start, 0)
    }
    const starts = data.upcoming.map((proposal: any) => proposal.hours_until_start)
    assert.deepEqual(
      starts,
      [...starts].sort((a, b) => a - b)
    )
  })

  test('participation adds up the votes of each space over active and closed proposals', async ({
    assert,
  }) => {
    const data = (await run()) as any
    const all = [...(await rawProposals('active')), ...(await rawProposals('closed'))]

    for (const metric of data.participation_metrics) {
      const own = all.filter((proposal) => proposal.space.id === metric.space)
      assert.equal(metric.proposals, own.length)
      assert.equal(
        metric.total_votes,
        own.reduce((sum, proposal) => sum + proposal.votes, 0)
      )
    }
    assert.equal(data.participation_metrics[0].space, 'arbitrumfoundation.eth')
  })

  test('a Snapshot outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('snapshot', 'status_503')
    await assert.rejects(() => run(), UpstreamFailure)
  })
})
