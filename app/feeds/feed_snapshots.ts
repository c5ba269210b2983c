import { createHash } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import { FeedsConfig } from '#feeds/define_config'
import Feed from '#models/feed'

/** The stored current copy of a mirrored feed, with its source's health. */
export interface FeedSnapshot {
  version: number
  data: unknown
  contentHash: string
  sizeBytes: number
  /** Epoch ms of the data's freshness. */
  lastUpdated: number
  fetchedAt: Date
  etag: string | null
  lastModified: string | null
}

/** A mirrored feed's source health, as the owner sees it. */
export interface SourceState {
  /** Null for a source that sends its documents (push, upload). */
  nextPollAt: Date | null
  lastPolledAt: Date | null
  lastSuccessAt: Date | null
  lastError: string | null
  lastErrorKind: string | null
  failures: number
}

/** A polled feed's health for its owner: the poll state and the current snapshot's metadata. */
export interface SourceHealth {
  state: SourceState
  snapshot: Omit<FeedSnapshot, 'data' | 'etag' | 'lastModified'> | null
}

export interface NewSnapshot {
  /** The document as received (hashed and measured as these bytes). */
  body: string
  data: unknown
  lastUpdated: number
  etag?: string | null
  lastModified?: string | null
}

/**
 * Taken on the feed's row by every snapshot writer: serialises them (and
 * feed edits) without blocking paid calls, whose payments only key-share it.
 */
const SNAPSHOT_WRITER_LOCK = 'FOR NO KEY UPDATE'

interface SnapshotRow {
  version: number
  data: unknown
  content_hash: string
  size_bytes: number
  last_updated: string | number
  fetched_at: Date
  etag: string | null
  last_modified: string | null
}

/**
 * Hosted Mirror snapshots in PostgreSQL (feed_snapshots): the current one is
 * the highest version, the last `keep` are kept. Every time comes from the
 * injectable Clock.
 */
@inject()
export class FeedSnapshots {
  constructor(
    private db: Database,
    private clock: Clock,
    private config: FeedsConfig
  ) {}

  /** How many versions a feed keeps: `snapshots.keep` in config/feeds.ts. */
  get keep(): number {
    return this.config.snapshots.keep
  }

  async current(feedId: string): Promise<FeedSnapshot | null> {
    const row = (await this.db
      .from('feed_snapshots')
      .where('feed_id', feedId)
      .orderBy('version', 'desc')
      .first()) as SnapshotRow | null
    return row ? snapshotOf(row) : null
  }

  /** The feeds among `feedIds` that have a current snapshot (one query, whatever the count). */
  async withSnapshot(feedIds: string[]): Promise<Set<string>> {
    if (feedIds.length === 0) return new Set()
    const rows = await this.db
      .from('feed_snapshots')
      .distinct('feed_id')
      .whereIn('feed_id', feedIds)
    return new Set(rows.map((row) => row.feed_id as string))
  }

  /** What a conditional poll needs of the current snapshot, without its document. */
  async validators(
    feedId: string
  ): Promise<{ version: number; etag: string | null; lastModified: string | null } | null> {
    const row = await this.db
      .from('feed_snapshots')
      .where('feed_id', feedId)
      .orderBy('version', 'desc')
      .select('version', 'etag', 'last_modified')
      .first()
    return row ? { version: row.version, etag: row.etag, lastModified: row.last_modified } : null
  }

  /** The source health of each polled feed among `feedIds` (two queries, whatever the count). */
  async healthOf(feedIds: string[]): Promise<Map<string, SourceHealth>> {
    const health = new Map<string, SourceHealth>()
    if (feedIds.length === 0) return health
    const states = await this.db.from('feed_source_states').whereIn('feed_id', feedIds)
    const snapshots = await this.db
      .from('feed_snapshots')
      .distinctOn('feed_id')
      .whereIn('feed_id', feedIds)
      .orderBy('feed_id')
      .orderBy('version', 'desc')
      .select('feed_id', 'version', 'content_hash', 'size_bytes', 'last_updated', 'fetched_at')
    const current = new Map(snapshots.map((row) => [row.feed_id as string, row]))
    for (const row of states) {
      const snapshot = current.get(row.feed_id)
      health.set(row.feed_id, {
        state: stateOf(row),
        snapshot: snapshot
          ? {
              version: snapshot.version,
              contentHash: snapshot.content_hash,
              sizeBytes: snapshot.size_bytes,
              lastUpdated: Number(snapshot.last_updated),
              fetchedAt: snapshot.fetched_at,
            }
          : null,
      })
    }
    return health
  }

  async versions(feedId: string): Promise<FeedSnapshot[]> {
    const rows = (await this.db
      .from('feed_snapshots')
      .where('feed_id', feedId)
      .orderBy('version', 'desc')) as SnapshotRow[]
    return rows.map(snapshotOf)
  }

  /**
   * Stores a document as the current snapshot. The same bytes as the current
   * one only refresh its fetched_at and validators (no new version).
   */
  async store(
    feedId: string,
    snapshot: NewSnapshot,
    client?: TransactionClientContract
  ): Promise<FeedSnapshot> {
    const contentHash = `sha256:${createHash('sha256').update(snapshot.body).digest('hex')}`
    const sizeBytes = Buffer.byteLength(snapshot.body)
    const fetchedAt = new Date(this.clock.now())
    return (client ?? this.db).transaction(async (trx) => {
      await trx.rawQuery(`SELECT 1 FROM feeds WHERE id = ? ${SNAPSHOT_WRITER_LOCK}`, [feedId])
      const current = (await trx
        .from('feed_snapshots')
        .where('feed_id', feedId)
        .orderBy('version', 'desc')
        .forUpdate()
        .first()) as SnapshotRow | null
      const validators = {
        etag: snapshot.etag ?? null,
        last_modified: snapshot.lastModified ?? null,
      }
      if (current && current.content_hash === contentHash) {
        const [row] = (await trx
          .from('feed_snapshots')
          .where({ feed_id: feedId, version: current.version })
          .update({ fetched_at: fetchedAt, ...validators })
          .returning('*')) as SnapshotRow[]
        return snapshotOf(row)
      }
      const version = (current?.version ?? 0) + 1
      const [row] = (await trx
        .insertQuery()
        .table('feed_snapshots')
        .insert({
          feed_id: feedId,
          version,
          data: JSON.stringify(snapshot.data),
          content_hash: contentHash,
          size_bytes: sizeBytes,
          last_updated: snapshot.lastUpdated,
          fetched_at: fetchedAt,
          ...validators,
        })
        .returning('*')) as SnapshotRow[]
      await trx
        .from('feed_snapshots')
        .where('feed_id', feedId)
        .where('version', '<=', version - this.keep)
        .delete()
      return snapshotOf(row)
    })
  }

  /** Locks the feed's row for a snapshot change and reads it afresh (null when deleted). */
  async lockFeed(feedId: string, trx: TransactionClientContract): Promise<Feed | null> {
    const { rows } = await trx.rawQuery(
      `SELECT * FROM feeds WHERE id = ? AND deleted_at IS NULL ${SNAPSHOT_WRITER_LOCK}`,
      [feedId]
    )
    return rows.length > 0 ? Feed.$createFromAdapterResult(rows[0], {}, { client: trx }) : null
  }

  /** A 304: the current snapshot is still the source's; only fetched_at moves. */
  async confirm(feedId: string) {
    await this.db.rawQuery(
      `UPDATE feed_snapshots SET fetched_at = ?
       WHERE feed_id = ? AND version = (SELECT max(version) FROM feed_snapshots WHERE feed_id = ?)`,
      [new Date(this.clock.now()), feedId, feedId]
    )
  }

  async state(feedId: string): Promise<SourceState | null> {
    const row = await this.db.from('feed_source_states').where('feed_id', feedId).first()
    return row ? stateOf(row) : null
  }

  /** A polled feed's first poll (or the first after its source changed) is due now. */
  async dueNow(feedId: string, client?: TransactionClientContract) {
    const now = new Date(this.clock.now())
    await (client ?? this.db).rawQuery(
      `INSERT INTO feed_source_states (feed_id, next_poll_at) VALUES (?, ?)
       ON CONFLICT (feed_id) DO UPDATE SET next_poll_at = EXCLUDED.next_poll_at, failures = 0`,
      [feedId, now]
    )
  }

  /** The feed now receives its documents from a new source: no snapshot, no poll state. */
  async startReceiving(feedId: string, client: TransactionClientContract) {
    await client.from('feed_snapshots').where('feed_id', feedId).delete()
    await client.rawQuery(
      `INSERT INTO feed_source_states (feed_id, next_poll_at) VALUES (?, NULL)
       ON CONFLICT (feed_id) DO UPDATE SET next_poll_at = NULL, last_polled_at = NULL,
         last_success_at = NULL, last_error = NULL, last_error_kind = NULL, failures = 0`,
      [feedId]
    )
  }

  /** A first poll is under way: not due for `seconds`, so mirrors:poll does not poll it too. */
  async lease(feedId: string, seconds: number) {
    await this.db.rawQuery(
      `INSERT INTO feed_source_states (feed_id, next_poll_at) VALUES (:feed, :until)
       ON CONFLICT (feed_id) DO UPDATE SET next_poll_at = :until`,
      { feed: feedId, until: new Date(this.clock.now() + seconds * 1_000) }
    )
  }

  /** A pushed or uploaded document was accepted: no poll is ever due. */
  async recordReceived(feedId: string, client?: TransactionClientContract) {
    const now = new Date(this.clock.now())
    await (client ?? this.db).rawQuery(
      `INSERT INTO feed_source_states (feed_id, next_poll_at, last_success_at, failures)
       VALUES (:feed, NULL, :now, 0)
       ON CONFLICT (feed_id) DO UPDATE SET next_poll_at = NULL, last_success_at = :now,
         last_error = NULL, last_error_kind = NULL, failures = 0`,
      { feed: feedId, now }
    )
  }

  async recordSuccess(feedId: string, nextPollAt: number) {
    const now = new Date(this.clock.now())
    await this.db.rawQuery(
      `INSERT INTO feed_source_states (feed_id, next_poll_at, last_polled_at, last_success_at, failures)
       VALUES (:feed, :next, :now, :now, 0)
       ON CONFLICT (feed_id) DO UPDATE SET next_poll_at = :next, last_polled_at = :now,
         last_success_at = :now, last_error = NULL, last_error_kind = NULL, failures = 0`,
      { feed: feedId, next: new Date(nextPollAt), now }
    )
  }

  /** Records a failure; returns the consecutive failures so far. */
  async recordFailure(
    feedId: string,
    error: { kind: string; message: string },
    nextPollAt: (failures: number) => number
  ) {
    const now = new Date(this.clock.now())
    const result = await this.db.rawQuery(
      `INSERT INTO feed_source_states (feed_id, next_poll_at, last_polled_at, last_error, last_error_kind, failures)
       VALUES (:feed, :now, :now, :message, :kind, 1)
       ON CONFLICT (feed_id) DO UPDATE SET last_polled_at = :now, last_error = :message,
         last_error_kind = :kind, failures = feed_source_states.failures + 1
       RETURNING failures`,
      { feed: feedId, now, message: error.message, kind: error.kind }
    )
    const failures = Number(result.rows[0].failures)
    await this.db
      .from('feed_source_states')
      .where('feed_id', feedId)
      .update({ next_poll_at: new Date(nextPollAt(failures)) })
    return failures
  }
}

function snapshotOf(row: SnapshotRow): FeedSnapshot {
  return {
    version: row.version,
    data: row.data,
    contentHash: row.content_hash,
    sizeBytes: row.size_bytes,
    lastUpdated: Number(row.last_updated),
    fetchedAt: row.fetched_at,
    etag: row.etag,
    lastModified: row.last_modified,
  }
}

function stateOf(row: Record<string, any>): SourceState {
  return {
    nextPollAt: row.next_poll_at,
    lastPolledAt: row.last_polled_at,
    lastSuccessAt: row.last_success_at,
    lastError: row.last_error,
    lastErrorKind: row.last_error_kind,
    failures: row.failures,
  }
}
