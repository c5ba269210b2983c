import { errors as vineErrors } from '@vinejs/vine'
import type { FeedSnapshots } from '#feeds/feed_snapshots'
import { snapshotPayload } from '#feeds/snapshot_payload'
import type { FeedPayload, FeedSourceDriver, ReceivedDocuments } from '#feeds/source_driver'
import type Feed from '#models/feed'

export interface ReceivedDocumentDriverOptions extends ReceivedDocuments {
  /** The source type it is registered as: webhook_push or manual_upload. */
  name: string
  snapshots: FeedSnapshots
  now(): number
}

const ORIGINS: Record<ReceivedDocuments['via'], string> = {
  push: 'pushed by its provider (Hosted Mirror)',
  upload: 'uploaded by its provider (Hosted Mirror)',
}

/**
 * Hosted Mirror from documents the provider sends (webhook_push: signed
 * pushes to /ingest; manual_upload: the owner's uploads). Nothing is
 * fetched: every accepted document becomes the feed's current snapshot
 * (ReceivedDocumentIntake), and paid calls serve it, never flagged stale —
 * the provider decides when its data changes.
 */
export class ReceivedDocumentDriver implements FeedSourceDriver {
  readonly name: string
  readonly receives: ReceivedDocuments

  constructor(private options: ReceivedDocumentDriverOptions) {
    this.name = options.name
    this.receives = { via: options.via, maxBytes: options.maxBytes }
  }

  /** These sources take no settings: a url or poll interval given by mistake is refused, not ignored. */
  async validateSettings(settings: unknown): Promise<Record<string, unknown>> {
    const given = settings && typeof settings === 'object' ? Object.keys(settings) : []
    if (given.length > 0) {
      throw new vineErrors.E_VALIDATION_ERROR(
        given.map((field) => ({
          field,
          message: `${this.name} sources take no ${field}: the provider sends the documents`,
          rule: 'not_a_setting',
        }))
      )
    }
    return {}
  }

  /** Served from the database on every call: no per-process cache. */
  cacheTtlMs() {
    return null
  }

  fetch(feed: Feed): Promise<FeedPayload> {
    return snapshotPayload(this.options.snapshots, feed, {
      dataSource: ORIGINS[this.receives.via],
      now: this.options.now(),
    })
  }
}
