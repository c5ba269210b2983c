import type { FeedSnapshot } from '#feeds/feed_snapshots'

/** A stored snapshot's metadata as its owner sees it (the data itself is what buyers pay for). */
export function snapshotView(snapshot: Omit<FeedSnapshot, 'data' | 'etag' | 'lastModified'>) {
  return {
    version: snapshot.version,
    size_bytes: snapshot.sizeBytes,
    content_hash: snapshot.contentHash,
    last_updated: snapshot.lastUpdated,
    fetched_at: snapshot.fetchedAt.toISOString(),
  }
}
