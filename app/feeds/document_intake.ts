import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { Clock } from '#core/clock'
import { MAX_JSON_DEPTH, isStorableAsJsonb } from '#core/storable_json'
import {
  E_DOCUMENT_TOO_LARGE,
  E_FEED_NOT_FOUND,
  E_NOT_A_JSON_DOCUMENT,
  E_NOT_A_PUSH_FEED,
  E_NOT_AN_UPLOAD_FEED,
} from '#feeds/exceptions'
import { type FeedSnapshot, FeedSnapshots } from '#feeds/feed_snapshots'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import type { ReceivedDocuments } from '#feeds/source_driver'
import type Feed from '#models/feed'

/** Checks of the caller's, run with the feed's row locked, before the document is stored. */
export type IntakeCheck = (feed: Feed, trx: TransactionClientContract) => Promise<void>

/**
 * Documents a provider sends (webhook pushes, uploads) becoming a feed's
 * current snapshot: only for a feed whose source driver receives them that
 * way, only a JSON object or array within the driver's size cap. The feed's
 * row is locked and re-read for the store, so concurrent documents are
 * stored one after the other and a feed switched away meanwhile takes none.
 * A refused document changes nothing.
 */
@inject()
export class DocumentIntake {
  constructor(
    private db: Database,
    private sources: FeedSourceManager,
    private snapshots: FeedSnapshots,
    private clock: Clock
  ) {}

  /** How the feed's source receives documents; refuses a feed that does not receive them `via`. */
  async receiving(feed: Feed, via: ReceivedDocuments['via']): Promise<ReceivedDocuments> {
    const { receives } = await this.sources.use(feed.sourceType)
    if (receives?.via === via) return receives
    throw via === 'push'
      ? new E_NOT_A_PUSH_FEED([feed.slug])
      : new E_NOT_AN_UPLOAD_FEED([feed.slug])
  }

  /**
   * Stores `body` as the current snapshot of `feed`, which must receive
   * documents `via`; `check` runs first, on the locked and re-read feed,
   * inside the same transaction.
   */
  async accept(
    feed: Feed,
    via: ReceivedDocuments['via'],
    body: string | null,
    check?: IntakeCheck
  ): Promise<FeedSnapshot> {
    const text = (body ?? '').replace(/^\uFEFF/, '')
    const size = Buffer.byteLength(text)
    const { maxBytes } = await this.receiving(feed, via)
    if (size > maxBytes) throw new E_DOCUMENT_TOO_LARGE([size, maxBytes])
    const data = documentOf(text)
    return this.db.transaction(async (trx) => {
      const locked = await this.snapshots.lockFeed(feed.id, trx)
      if (!locked) throw new E_FEED_NOT_FOUND(feed.slug)
      await this.receiving(locked, via)
      await check?.(locked, trx)
      const snapshot = await this.snapshots.store(
        locked.id,
        { body: text, data, lastUpdated: this.clock.now() },
        trx
      )
      await this.snapshots.recordReceived(locked.id, trx)
      return snapshot
    })
  }
}

function documentOf(text: string): object {
  if (text.trim() === '') throw new E_NOT_A_JSON_DOCUMENT(['an empty body'])
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new E_NOT_A_JSON_DOCUMENT(['text that does not parse as JSON'])
  }
  if (data === null || typeof data !== 'object') {
    throw new E_NOT_A_JSON_DOCUMENT([data === null ? 'null' : `a JSON ${typeof data}`])
  }
  if (!isStorableAsJsonb(data)) {
    throw new E_NOT_A_JSON_DOCUMENT([
      `JSON we cannot store: it holds an unpaired surrogate (\\ud800), a number too large to keep (1e400) or nests deeper than ${MAX_JSON_DEPTH} levels`,
    ])
  }
  return data
}
