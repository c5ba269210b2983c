import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { randomPrivateKey } from '@stacks/transactions'
import { ACTIVITY_PAGE_SIZE } from '#web/controllers/show_activity_page_controller'
import { QueryLogSeeder, SEED_DEFAULTS } from '#stats/query_log_seeder'
import { emptyMarketplaceLater } from '#tests/support/database'
import { createFeeds } from '#tests/support/feeds'
import { createProviderRow } from '#tests/support/providers'
import { signIn, walletOf } from '#tests/support/sign_in'

/** Enough rows for the planner to weigh a scan of the log against its indexes. */
const SEEDED_ROWS = 30_000
/**
 * A marketplace's many feeds (with the 16 built-in): the planner then knows
 * one feed's calls are a small share of the log, as they are at scale.
 */
const PROVIDER_FEEDS = 100

/**
 * Every statistics route, with the most query-log rows it may read: none
 * for the rollup readers, its page of newest calls for the activity lists.
 */
const ROUTES: { path: string; logRows: number; html?: boolean }[] = [
  { path: '/stats', logRows: 0 },
  { path: '/leaderboard', logRows: 0 },
  { path: '/market/leaderboard', logRows: 0, html: true },
  { path: '/market/providers/acme-data', logRows: 0, html: true },
  { path: '/providers/id/:id/analytics', logRows: 0 },
  { path: '/activity', logRows: 20 },
  { path: '/activity?limit=100', logRows: 100 },
  { path: '/activity?feed=whale-alerts', logRows: 20 },
  { path: '/activity?feed=acme-data/feed-2&limit=5', logRows: 5 },
  { path: '/', logRows: 8, html: true },
  { path: '/market/activity', logRows: ACTIVITY_PAGE_SIZE, html: true },
  { path: '/market/feeds/whale-alerts', logRows: 10, html: true },
  { path: '/market/feeds/p/acme-data/feed-1', logRows: 10, html: true },
]

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Actual Rows': number
  'Actual Loops': number
  'Rows Removed by Filter'?: number
  'Plans'?: PlanNode[]
}

interface LoggedQuery {
  sql: string
  bindings: unknown[]
}

/** Every statement the app sends to PostgreSQL while `run` runs (knex's `query` event). */
async function queriesDuring(run: () => Promise<void>) {
  const knex = db.connection().getWriteClient()
  const queries: LoggedQuery[] = []
  const record = (query: LoggedQuery) => queries.push({ sql: query.sql, bindings: query.bindings })
  knex.on('query', record)
  try {
    await run()
  } finally {
    knex.off('query', record)
  }
  return queries
}

/** EXPLAIN ANALYZE of a logged statement, with its own bindings, on a connection of the pool. */
async function explain(query: LoggedQuery): Promise<PlanNode> {
  const client = db.connection().getWriteClient().client
  const connection = await client.acquireConnection()
  try {
    const result = await connection.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`,
      query.bindings
    )
    return result.rows[0]['QUERY PLAN'][0].Plan
  } finally {
    await client.releaseConnection(connection)
  }
}

function* nodesOf(plan: PlanNode): Generator<PlanNode> {
  yield plan
  for (const child of plan.Plans ?? []) yield* nodesOf(child)
}

/** How a plan reads the query log: each scan, and how many rows it looked at. */
function logScans(plan: PlanNode) {
  return [...nodesOf(plan)]
    .filter((node) => node['Relation Name'] === 'query_log')
    .map((node) => ({
      type: node['Node Type'],
      rowsRead:
        (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'],
    }))
}

test.group('Statistics plans over a large query log', (group) => {
  let providerId: string
  let ownerKey: string

  group.setup(async () => {
    // The seeder commits: emptied afterwards, the built-in feeds' counters restored.
    const emptyLater = await emptyMarketplaceLater()
    ownerKey = randomPrivateKey()
    const provider = await createProviderRow('acme-data', walletOf(ownerKey))
    providerId = provider.id
    await createFeeds(provider.id, PROVIDER_FEEDS, (n) => ({ slug: `feed-${n}` }))
    const seeder = await app.container.make(QueryLogSeeder)
    // Seeding ends with ANALYZE: the planner sees the log's real size.
    await seeder.seed({ ...SEED_DEFAULTS, rows: SEEDED_ROWS, payers: 300 })
    return emptyLater
  })

  test('no statistics route scans the query log: rollups, or the newest rows by index', async ({
    client,
    assert,
  }) => {
    const { token } = await signIn(client, ownerKey)
    const findings: string[] = []
    let explained = 0
    for (const route of ROUTES) {
      const path = route.path.replace(':id', providerId)
      const queries = await queriesDuring(async () => {
        const request = client.get(path).bearerToken(token)
        const response = await (route.html ? request.header('accept', 'text/html') : request)
        response.assertStatus(200)
      })
      for (const query of queries.filter((q) => /^\s*(select|with)\b/i.test(q.sql))) {
        explained++
        for (const scan of logScans(await explain(query))) {
          if (scan.type !== 'Index Scan' && scan.type !== 'Index Only Scan') {
            findings.push(`${path}: ${scan.type} on query_log in ${query.sql}`)
          } else if (scan.rowsRead > route.logRows) {
            findings.push(
              `${path}: reads ${scan.rowsRead} query_log rows (at most ${route.logRows}) in ${query.sql}`
            )
          }
        }
      }
    }
    assert.isAbove(explained, ROUTES.length)
    assert.deepEqual(findings, [])
  })
})
