import vine from '@vinejs/vine'
import { defineAdapter, type UpstreamHttp } from '#feeds/builtin/adapter'
import { round } from '#feeds/builtin/rounding'

const proposalsSchema = vine.create(
  vine
    .object({
      data: vine
        .object({
          proposals: vine.array(
            vine
              .object({
                id: vine.string(),
                title: vine.string(),
                space: vine
                  .object({ id: vine.string(), name: vine.string().nullable().optional() })
                  .allowUnknownProperties(),
                start: vine.number(),
                end: vine.number(),
                state: vine.string(),
                choices: vine.array(vine.string()),
                scores: vine.array(vine.number()).nullable().optional(),
                scores_total: vine.number().nullable().optional(),
                votes: vine.number().nullable().optional(),
                quorum: vine.number().nullable().optional(),
              })
              .allowUnknownProperties()
          ),
        })
        .allowUnknownProperties(),
    })
    .allowUnknownProperties()
)

type Proposal = Awaited<ReturnType<typeof proposalsSchema.validate>>['data']['proposals'][number]
type State = 'active' | 'closed' | 'pending'

// Verified, unflagged spaces only: the hub is full of spam proposals otherwise.
const PROPOSALS_QUERY = `query Proposals($first: Int!, $state: String!) {
  proposals(
    first: $first
    skip: 0
    where: { state: $state, space_verified: true, flagged: false }
    orderBy: "created"
    orderDirection: desc
  ) {
    id
    title
    space { id name }
    start
    end
    state
    choices
    scores
    scores_total
    votes
    quorum
  }
}`

const FETCH_PER_STATE = 30
const LIST_SIZE = 10
const TOP_SPACES = 10

function fetchProposals(http: UpstreamHttp, state: State) {
  return http
    .getJson('snapshot', '/graphql', proposalsSchema, {
      method: 'POST',
      body: { query: PROPOSALS_QUERY, variables: { first: FETCH_PER_STATE, state } },
    })
    .then((answer) => answer.data.proposals)
}

/** The choice with the most voting power, its share and its lead over the runner-up. */
function tally(proposal: Proposal) {
  const scores = proposal.scores ?? []
  const total = proposal.scores_total ?? scores.reduce((sum, score) => sum + score, 0)
  if (total <= 0 || scores.length === 0) {
    return { leading_choice: null, leading_percentage: null, margin_percentage: null }
  }
  const ranked = scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
  const [first, second] = ranked
  return {
    leading_choice: proposal.choices[first.index] ?? `Choice ${first.index + 1}`,
    leading_percentage: round((first.score / total) * 100),
    margin_percentage: round(((first.score - (second?.score ?? 0)) / total) * 100),
  }
}

function present(proposal: Proposal, nowSeconds: number) {
  const scoresTotal = proposal.scores_total ?? 0
  const quorum = proposal.quorum ?? 0
  return {
    id: proposal.id,
    title: proposal.title,
    space: proposal.space.id,
    space_name: proposal.space.name ?? proposal.space.id,
    start: new Date(proposal.start * 1000).toISOString(),
    end: new Date(proposal.end * 1000).toISOString(),
    hours_until_end: proposal.end > nowSeconds ? round((proposal.end - nowSeconds) / 3_600, 1) : 0,
    choices: proposal.choices,
    votes: proposal.votes ?? 0,
    scores_total: round(scoresTotal),
    ...tally(proposal),
    quorum: quorum > 0 ? round(quorum) : null,
    quorum_reached: quorum > 0 && proposal.state !== 'pending' ? scoresTotal >= quorum : null,
    url: `https://snapshot.box/#/s:${proposal.space.id}/proposal/${proposal.id}`,
  }
}

export default defineAdapter({
  upstreams: ['snapshot'],
  async fetch({ http, now }) {
    const nowSeconds = Math.floor(now() / 1000)
    const [active, closed, pending] = await Promise.all([
      fetchProposals(http, 'active'),
      fetchProposals(http, 'closed'),
      fetchProposals(http, 'pending'),
    ])

    const activeList = active
      .map((proposal) => present(proposal, nowSeconds))
      .sort((a, b) => b.votes - a.votes)
    const closedList = closed
      .sort((a, b) => b.end - a.end)
      .map((proposal) => present(proposal, nowSeconds))
    const upcoming = pending
      .sort((a, b) => a.start - b.start)
      .map((proposal) => ({
        ...present(proposal, nowSeconds),
        hours_until_start: round(Math.max(0, proposal.start - nowSeconds) / 3_600, 1),
      }))

    const bySpace = new Map<
      string,
      { name: string; proposals: number; votes: number; active: number }
    >()
    for (const proposal of [...activeList, ...closedList]) {
      const entry = bySpace.get(proposal.space) ?? {
        name: proposal.space_name,
        proposals: 0,
        votes: 0,
        active: 0,
      }
      entry.proposals += 1
      entry.votes += proposal.votes
      if (activeList.includes(proposal)) entry.active += 1
      bySpace.set(proposal.space, entry)
    }

    const contested = activeList.filter(
      (proposal) => proposal.margin_percentage !== null && proposal.margin_percentage < 10
    )
    const withQuorum = closedList.filter((proposal) => proposal.quorum_reached !== null)

    return {
      active_proposals: activeList.slice(0, LIST_SIZE),
      recent_closed: closedList.slice(0, LIST_SIZE),
      upcoming: upcoming.slice(0, LIST_SIZE),
      participation_metrics: [...bySpace.entries()]
        .map(([space, entry]) => ({
          space,
          space_name: entry.name,
          proposals: entry.proposals,
          active_proposals: entry.active,
          total_votes: entry.votes,
          average_votes: round(entry.votes / entry.proposals, 1),
        }))
        .sort((a, b) => b.total_votes - a.total_votes)
        .slice(0, TOP_SPACES),
      summary: {
        active_count: activeList.length,
        upcoming_count: upcoming.length,
        recently_closed_count: closedList.length,
        active_votes: activeList.reduce((sum, proposal) => sum + proposal.votes, 0),
        contested_active_count: contested.length,
        closed_quorum_rate_pct: withQuorum.length
          ? round(
              (withQuorum.filter((proposal) => proposal.quorum_reached).length /
                withQuorum.length) *
                100
            )
          : null,
      },
      data_source: 'Snapshot Hub GraphQL (verified spaces)',
    }
  },
})
