import db from '@adonisjs/lucid/services/db'
import { createProviderRow } from '#tests/support/providers'
import { type LocalSite, startLocalSite } from '#tests/support/local_site'

/**
 * Many mirrored files on one real HTTP server on 127.0.0.1: each path is a
 * small JSON document with an ETag (a conditional poll gets 304). `onRequest`
 * sees each request as it arrives (the path, e.g. `/<handle>/<slug>.json`).
 */
export async function startMirroredFiles(onRequest: (path: string) => void = () => {}) {
  return startLocalSite((request, response) => {
    const path = request.url ?? '/'
    onRequest(path)
    const etag = `"${path}"`
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag })
      return response.end()
    }
    response.writeHead(200, { 'content-type': 'application/json', etag })
    response.end(JSON.stringify({ path }))
  })
}

export interface PolledFeed {
  id: string
  /** The path its source URL asks the site for. */
  path: string
}

/**
 * A provider of `ownerWallet` with `count` active codehost_raw feeds polled
 * every `intervalSeconds`, inserted directly (no first poll), each due at
 * `dueAt(index)` (epoch ms). Committed: pollers claim them on their own
 * connections. Clean up with emptyMarketplace().
 */
export async function insertPolledFeeds(options: {
  site: LocalSite
  ownerWallet: string
  handle: string
  count: number
  intervalSeconds?: number
  dueAt: (index: number) => number
}): Promise<PolledFeed[]> {
  const provider = await createProviderRow(options.handle, options.ownerWallet)
  const feeds: PolledFeed[] = []
  for (let from = 0; from < options.count; from += 1_000) {
    const indexes = Array.from(
      { length: Math.min(1_000, options.count - from) },
      (_, offset) => from + offset
    )
    const rows = await db
      .table('feeds')
      .multiInsert(
        indexes.map((index) => ({
          provider_id: provider.id,
          slug: `feed-${index}`,
          display_name: `Feed ${index}`,
          price_microstx: 5_000,
          source_type: 'codehost_raw',
          source_settings: JSON.stringify({
            url: `http://127.0.0.1:${options.site.port}/${options.handle}/feed-${index}.json`,
            poll_interval_seconds: options.intervalSeconds ?? 60,
          }),
          status: 'active',
        }))
      )
      .returning(['id', 'slug'])
    const inserted = rows as { id: string; slug: string }[]
    await db.table('feed_source_states').multiInsert(
      inserted.map((row) => ({
        feed_id: row.id,
        next_poll_at: new Date(options.dueAt(Number(row.slug.slice('feed-'.length)))),
      }))
    )
    feeds.push(
      ...inserted.map((row) => ({ id: row.id, path: `/${options.handle}/${row.slug}.json` }))
    )
  }
  return feeds
}
