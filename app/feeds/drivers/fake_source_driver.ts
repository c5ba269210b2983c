import { type FeedPayload, type FeedSourceDriver, SourceUnavailable } from '#feeds/source_driver'

/**
 * The in-memory driver `sources.fake()` puts in place of a source: it serves
 * the document the test sets, counts its fetches, and fails with
 * SourceUnavailable while `failure` is set. Nothing leaves the process.
 */
export class FakeSourceDriver implements FeedSourceDriver {
  document: unknown = { fake: true }
  /** The payload's last_updated (Unix ms). */
  lastUpdated = 0
  /** While set, every fetch fails with this message. */
  failure: string | null = null
  fetches = 0

  constructor(readonly name: string) {}

  cacheTtlMs() {
    return null
  }

  async fetch(): Promise<FeedPayload> {
    this.fetches++
    if (this.failure !== null) throw new SourceUnavailable(this.failure)
    return {
      data: this.document,
      last_updated: this.lastUpdated,
      data_source: `the fake ${this.name} source`,
    }
  }
}
