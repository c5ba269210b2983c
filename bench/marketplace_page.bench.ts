import { availableParallelism, cpus } from 'node:os'
import { test } from '@japa/runner'
import env from '#start/env'
import { emptyMarketplace } from '#tests/support/database'
import { createFeeds } from '#tests/support/feeds'
import { createProviderRow } from '#tests/support/providers'

/**
 * `node ace test bench --files marketplace_page`: the public pages that list
 * feeds when one provider has 1 000 live feeds (issue 19: the home page grew
 * to 1.1 MB and 1.6 s). Each page is fetched over HTTP one request at a time,
 * body included, after a warm-up; the figures are in docs/performance.md.
 */
const FEEDS = 1_000
const WARM_UP = 3
const ROUNDS = 20

const PAGES = [
  '/',
  '/?page=10',
  '/?q=feed-05',
  '/?category=provider&page=41',
  '/market/providers',
  '/market/providers/bulk-data',
  '/market/providers/bulk-data?page=42',
]

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

async function fetchPage(url: string) {
  const started = performance.now()
  const response = await fetch(url, { headers: { accept: 'text/html' } })
  const body = await response.arrayBuffer()
  return { status: response.status, bytes: body.byteLength, ms: performance.now() - started }
}

test.group('Benchmark', () => {
  test('the marketplace pages with 1 000 live feeds of one provider', async ({ assert }) => {
    const base = `http://${env.get('HOST')}:${env.get('PORT')}`
    const provider = await createProviderRow('bulk-data')
    await createFeeds(provider.id, FEEDS, (n) => ({
      slug: `feed-${String(n).padStart(4, '0')}`,
      displayName: `Bulk feed ${n}`,
      description: 'Spot prices from our own matching engine, refreshed every second',
    }))
    const rows: string[] = []
    try {
      for (const path of PAGES) {
        for (let i = 0; i < WARM_UP; i++) await fetchPage(`${base}${path}`)
        const runs = []
        for (let i = 0; i < ROUNDS; i++) runs.push(await fetchPage(`${base}${path}`))
        assert.isTrue(
          runs.every((run) => run.status === 200),
          path
        )
        const ms = runs.map((run) => run.ms)
        rows.push(
          `| \`${path}\` | ${(runs[0].bytes / 1024).toFixed(1)} KB | ${percentile(ms, 50).toFixed(0)} ms | ${percentile(ms, 90).toFixed(0)} ms |`
        )
      }
    } finally {
      await emptyMarketplace()
    }
    console.log(
      [
        '',
        `Machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), ${FEEDS} live feeds of one provider + the 16 built-in, ${ROUNDS} sequential requests per page after ${WARM_UP} to warm up`,
        '',
        '| page | size | p50 | p90 |',
        '|---|---|---|---|',
        ...rows,
        '',
      ].join('\n')
    )
  })
})
