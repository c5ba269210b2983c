import type { FeedSnapshots } from '#feeds/feed_snapshots'
import { MirrorFailure } from '#feeds/mirror_failure'
import type { FeedPayload } from '#feeds/source_driver'
import type Feed from '#models/feed'

export interface SnapshotServing {
  /** The real origin of the data, as the envelope names it. */
  dataSource: string
  /** Older than this (by fetched_at) → served flagged `stale`; undefined → never stale. */
  staleAfterMs?: number
  now: number
}

/**
 * A Hosted Mirror feed's paid call: its current stored snapshot, the same on
 * every app instance. None yet → MirrorFailure('no_snapshot'): nothing is
 * charged.
 */
export async function snapshotPayload(
  snapshots: FeedSnapshots,
  feed: Feed,
  serving: SnapshotServing
): Promise<FeedPayload> {
  const snapshot = await snapshots.current(feed.id)
  if (!snapshot) {
    throw new MirrorFailure('no_snapshot', 'the mirror has no copy of the source yet')
  }
  const age = serving.now - snapshot.fetchedAt.getTime()
  const stale = serving.staleAfterMs !== undefined && age > serving.staleAfterMs
  return {
    data: snapshot.data,
    last_updated: snapshot.lastUpdated,
    data_source: serving.dataSource,
    ...(stale ? { stale: true as const } : {}),
  }
}
