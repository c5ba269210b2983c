import vine from '@vinejs/vine'
import { defineAdapter } from '#feeds/builtin/adapter'

/** solana-labs/solana was archived in January 2025; Solana's validator lives on as anza-xyz/agave. */
const REPOSITORIES = [
  { repo: 'stacks-network/stacks-core', chain: 'stacks' },
  { repo: 'hirosystems/stacks.js', chain: 'stacks' },
  { repo: 'stacks-network/sbtc', chain: 'stacks' },
  { repo: 'ethereum/go-ethereum', chain: 'ethereum' },
  { repo: 'anza-xyz/agave', chain: 'solana' },
] as const

const WINDOW_DAYS = 7
const PER_PAGE = 100
/** Pages per repository: busy repositories are counted up to 300 commits a week. */
const MAX_PAGES = 3
const TOP_CONTRIBUTORS = 5
const NOTABLE_COMMITS = 10

/** First-line patterns, most important first; conventional commits and "pkg: subject" style. */
const NOTABLE_KINDS: [string, RegExp][] = [
  ['security', /\bsecurity\b|\bcve-\d{4}|vulnerab/i],
  ['release', /^(chore\(release\)|release)\b|\brelease v?\d|\bbump version\b/i],
  ['breaking', /^\w+(\([^)]*\))?!:|breaking change/i],
  ['feature', /^feat(\([^)]*\))?:|^[\w./-]+: (add|implement|introduce|support)\b/i],
  ['fix', /^fix(\([^)]*\))?:|^[\w./-]+: fix\b/i],
]

const commitsSchema = vine.create(
  vine.array(
    vine
      .object({
        sha: vine.string(),
        html_url: vine.string(),
        commit: vine
          .object({
            author: vine
              .object({ name: vine.string(), date: vine.string() })
              .allowUnknownProperties()
              .nullable(),
            committer: vine.object({ date: vine.string() }).allowUnknownProperties().nullable(),
            message: vine.string(),
          })
          .allowUnknownProperties(),
        author: vine
          .object({ login: vine.string(), type: vine.string() })
          .allowUnknownProperties()
          .nullable(),
        parents: vine.array(vine.object({ sha: vine.string() }).allowUnknownProperties()),
      })
      .allowUnknownProperties()
  )
)

type Commit = Awaited<ReturnType<typeof commitsSchema.validate>>[number]
type Repository = (typeof REPOSITORIES)[number]

const contributor = (commit: Commit) =>
  commit.author?.login ?? commit.commit.author?.name ?? 'unknown'
const isBot = (commit: Commit) =>
  commit.author?.type === 'Bot' || contributor(commit).endsWith('[bot]')
const committedAt = (commit: Commit) =>
  commit.commit.committer?.date ?? commit.commit.author?.date ?? ''
const subject = (commit: Commit) => commit.commit.message.split('\n')[0].slice(0, 120)

function notableKind(commit: Commit) {
  if (isBot(commit) || commit.parents.length > 1) return undefined
  return NOTABLE_KINDS.find(([, pattern]) => pattern.test(subject(commit)))?.[0]
}

function topContributors(commits: Commit[]) {
  const counts = new Map<string, number>()
  for (const commit of commits) {
    if (isBot(commit)) continue
    counts.set(contributor(commit), (counts.get(contributor(commit)) ?? 0) + 1)
  }
  return {
    contributors: counts.size,
    top: [...counts]
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .slice(0, TOP_CONTRIBUTORS)
      .map(([login, commitCount]) => ({ login, commits: commitCount })),
  }
}

export default defineAdapter({
  upstreams: ['github'],
  async fetch({ http, now, settings }) {
    const since = new Date(now() - WINDOW_DAYS * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    const headers: Record<string, string> = {
      'accept': 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      ...(settings.githubToken && { authorization: `Bearer ${settings.githubToken}` }),
    }

    const commitsOf = async ({ repo }: Repository) => {
      const commits: Commit[] = []
      for (let page = 1; page <= MAX_PAGES; page++) {
        const batch = await http.getJson(
          'github',
          `/repos/${repo}/commits?since=${since}&per_page=${PER_PAGE}&page=${page}`,
          commitsSchema,
          { headers }
        )
        commits.push(...batch)
        if (batch.length < PER_PAGE) return { commits, truncated: false }
      }
      return { commits, truncated: true }
    }
    const results = await Promise.all(REPOSITORIES.map(commitsOf))

    const repos = REPOSITORIES.map((repository, index) => {
      const { commits, truncated } = results[index]
      const { contributors, top } = topContributors(commits)
      const latest = commits.map(committedAt).sort().at(-1)
      return {
        repo: repository.repo,
        chain: repository.chain,
        commit_count: commits.length,
        truncated,
        contributors,
        bot_commits: commits.filter(isBot).length,
        top_contributors: top,
        last_commit_at: latest ?? null,
      }
    })

    const notable = REPOSITORIES.flatMap((repository, index) =>
      results[index].commits.flatMap((commit) => {
        const kind = notableKind(commit)
        return kind
          ? [
              {
                repo: repository.repo,
                chain: repository.chain,
                kind,
                sha: commit.sha.slice(0, 7),
                message: subject(commit),
                author: contributor(commit),
                date: committedAt(commit),
                url: commit.html_url,
              },
            ]
          : []
      })
    )
      .sort((a, b) => b.date.localeCompare(a.date))
      .slice(0, NOTABLE_COMMITS)

    const commitsOn = (chain: string) =>
      repos.filter((repo) => repo.chain === chain).reduce((sum, repo) => sum + repo.commit_count, 0)
    const total = repos.reduce((sum, repo) => sum + repo.commit_count, 0)
    const mostActive = [...repos].sort((a, b) => b.commit_count - a.commit_count)[0]

    return {
      summary: {
        window_days: WINDOW_DAYS,
        since,
        total_commits: total,
        most_active_repo: mostActive.commit_count > 0 ? mostActive.repo : null,
        stacks_commits: commitsOn('stacks'),
        other_chain_commits: total - commitsOn('stacks'),
        by_chain: {
          stacks: commitsOn('stacks'),
          ethereum: commitsOn('ethereum'),
          solana: commitsOn('solana'),
        },
      },
      repos,
      recent_notable_commits: notable,
      data_source: 'GitHub REST API (list commits)',
    }
  },
})
