import type { FeedSnapshot } from '#feeds/feed_snapshots'
import type { SnapshotView } from '#provider_accounts/owner_api'

/** A stored snapshot's metadata as its owner sees it (the data itself is what buyers pay for). */
export function snapshotView(
  snapshot: Omit<FeedSnapshot, 'data' | 'etag' | 'lastModified'>
): SnapshotView {
  return {
    version: snapshot.version,
    size_bytes: snapshot.sizeBytes,
    content_hash: snapshot.contentHash,
    last_updated: snapshot.lastUpdated,
    fetched_at: snapshot.fetchedAt.toISOString(),
  }
}
