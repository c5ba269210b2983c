import { test } from '@japa/runner'
import type { UpstreamRequest } from '#feeds/builtin/adapter'
import adapter from '#feeds/builtin/adapters/dev_activity'
import { UpstreamFailure } from '#feeds/builtin/upstream_http'
import { TEST_SETTINGS, useUpstreamSimulator } from '#tests/support/upstreams'

interface RawCommit {
  sha: string
  commit: { message: string; author: { name: string } }
  author: { login: string; type: string } | null
  parents: unknown[]
}

const NOW = 1_795_300_000_000
const SINCE = new Date(NOW - 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
const REPOS = {
  'stacks-network/stacks-core': 'stacks',
  'hirosystems/stacks.js': 'stacks',
  'stacks-network/sbtc': 'stacks',
  'ethereum/go-ethereum': 'ethereum',
  'anza-xyz/agave': 'solana',
}
const isBot = (commit: RawCommit) =>
  commit.author?.type === 'Bot' || (commit.author?.login ?? '').endsWith('[bot]')

test.group('Built-in feed dev-activity', (group) => {
  const upstreams = useUpstreamSimulator(group)
  const commitsOf = async (repo: string) => {
    const commits: RawCommit[] = []
    for (let page = 1; ; page++) {
      const response = await fetch(
        `${upstreams.simulator().url}/github/repos/${repo}/commits?since=${SINCE}&per_page=100&page=${page}`
      )
      const batch = (await response.json()) as RawCommit[]
      commits.push(...batch)
      if (batch.length < 100) return commits
    }
  }

  test('counts each repository’s commits of the last seven days across pages', async ({
    assert,
  }) => {
    const data = (await upstreams.run(adapter)) as any

    assert.deepEqual(
      data.repos.map((repo: any) => [repo.repo, repo.chain]),
      Object.entries(REPOS)
    )
    for (const repo of data.repos) {
      const commits = await commitsOf(repo.repo)
      assert.equal(repo.commit_count, commits.length, repo.repo)
    }
    const agave = data.repos.find((repo: any) => repo.repo === 'anza-xyz/agave')
    assert.isAbove(agave.commit_count, 100, 'a second page was read')
    assert.isFalse(agave.truncated)
  })

  test('splits the total between Stacks and the other chains', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const count = (chain: string) =>
      data.repos
        .filter((repo: any) => repo.chain === chain)
        .reduce((sum: number, repo: any) => sum + repo.commit_count, 0)
    const busiest = [...data.repos].sort((a: any, b: any) => b.commit_count - a.commit_count)[0]

    assert.equal(data.summary.stacks_commits, count('stacks'))
    assert.equal(data.summary.other_chain_commits, count('ethereum') + count('solana'))
    assert.equal(
      data.summary.total_commits,
      data.summary.stacks_commits + data.summary.other_chain_commits
    )
    assert.equal(data.summary.most_active_repo, busiest.repo)
    assert.deepEqual(data.summary.by_chain, {
      stacks: count('stacks'),
      ethereum: count('ethereum'),
      solana: count('solana'),
    })
  })

  test('ranks human contributors by commits and counts bots apart', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const repo = data.repos.find((entry: any) => entry.repo === 'stacks-network/stacks-core')
    const commits = await commitsOf(repo.repo)
    const counts = new Map<string, number>()
    for (const commit of commits.filter((entry) => !isBot(entry))) {
      const name = commit.author?.login ?? commit.commit.author.name
      counts.set(name, (counts.get(name) ?? 0) + 1)
    }
    const expected = [...counts]
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .slice(0, 5)
      .map(([login, count]) => ({ login, commits: count }))

    assert.deepEqual(repo.top_contributors, expected)
    assert.equal(repo.bot_commits, commits.filter(isBot).length)
    assert.isAbove(repo.bot_commits, 0)
    assert.notMatch(repo.top_contributors.map((entry: any) => entry.login).join(','), /\[bot\]/)
  })

  test('lists the newest notable commits, leaving out merges and bots', async ({ assert }) => {
    const data = (await upstreams.run(adapter)) as any
    const all = new Map<string, RawCommit>()
    for (const repo of Object.keys(REPOS)) {
      for (const commit of await commitsOf(repo)) all.set(commit.sha.slice(0, 7), commit)
    }
    const notable = data.recent_notable_commits

    assert.lengthOf(notable, 10)
    assert.deepEqual(
      notable.map((entry: any) => entry.date),
      [...notable.map((entry: any) => entry.date)].sort().reverse()
    )
    for (const entry of notable) {
      const commit = all.get(entry.sha)!
      assert.lengthOf(commit.parents, 1)
      assert.isFalse(isBot(commit))
      assert.equal(entry.message, commit.commit.message.split('\n')[0])
      const expected = /security/i.test(entry.message)
        ? 'security'
        : /^(chore\(release\)|release)\b/.test(entry.message)
          ? 'release'
          : /^feat:|^[\w./-]+: add\b/.test(entry.message)
            ? 'feature'
            : 'fix'
      assert.equal(entry.kind, expected, entry.message)
    }
    assert.includeMembers(
      notable.map((entry: any) => entry.kind),
      ['feature', 'fix']
    )
  })

  /** The requests the adapter sends to its upstreams in one fetch with these settings. */
  async function requestsSent(settings: typeof TEST_SETTINGS) {
    const http = upstreams.http()
    const seen: (UpstreamRequest | undefined)[] = []
    await adapter.fetch({
      http: {
        getJson: (upstream, path, schema, request) => {
          seen.push(request)
          return http.getJson(upstream, path, schema, request)
        },
      },
      query: {},
      now: () => NOW,
      settings,
    })
    return seen
  }

  test('sends the configured GitHub token as a bearer token', async ({ assert }) => {
    const seen = await requestsSent({ ...TEST_SETTINGS, githubToken: 'ghp_example' })

    assert.isAbove(seen.length, 5)
    for (const request of seen) {
      assert.equal(request?.headers?.authorization, 'Bearer ghp_example')
    }
  })

  test('sends no authorization header when no token is configured', async ({ assert }) => {
    const seen = await requestsSent(TEST_SETTINGS)

    assert.isAbove(seen.length, 5)
    assert.isTrue(seen.every((request) => request?.headers?.authorization === undefined))
  })

  test('a GitHub outage surfaces as an upstream failure', async ({ assert }) => {
    upstreams.simulator().failNext('github', 'status_503')
    await assert.rejects(() => upstreams.run(adapter), UpstreamFailure)
  })
})
