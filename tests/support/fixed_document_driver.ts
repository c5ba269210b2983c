import vine from '@vinejs/vine'
import type { FeedPayload, FeedSourceDriver, SourceDeclaration } from '#feeds/source_driver'
import type Feed from '#models/feed'

/** When the fixed document was last updated (epoch ms), as its payload says. */
export const FIXED_DOCUMENT_UPDATED_AT = 1_700_000_000_000

const settingsValidator = vine.create({
  edition: vine.string().trim().minLength(1).maxLength(40),
})

/** What the test plugin declares: a Hosted Mirror source type with one field, `edition`. */
export const FIXED_DOCUMENT_DECLARATION: SourceDeclaration = {
  mode: 'hosted_mirror',
  delivery: 'fetched',
  label: 'A fixed document',
  description: 'The test plugin: one fixed JSON document, labelled with its edition.',
  fields: [
    {
      name: 'edition',
      label: 'Edition',
      kind: 'text',
      hint: 'Any word: the document carries it.',
      required: true,
      maxLength: 40,
    },
  ],
  freshness: () => 'A fixed document, always the same',
}

/**
 * A source driver that lives outside app/: it serves one fixed JSON document
 * labelled with the feed's `edition` setting. Registered with one
 * `sources.extend(name, sources.custom(FIXED_DOCUMENT_DECLARATION, …))`, it is the proof
 * that a new driver is one file and one config line.
 */
export class FixedDocumentDriver implements FeedSourceDriver {
  readonly name = 'test_plugin'
  fetches = 0

  async validateSettings(settings: unknown) {
    return settingsValidator.validate(settings)
  }

  cacheTtlMs() {
    return null
  }

  async fetch(feed: Feed): Promise<FeedPayload> {
    this.fetches++
    return {
      data: { edition: feed.sourceSettings.edition, prices: { BTC: 97_000.5, STX: 1.25 } },
      last_updated: FIXED_DOCUMENT_UPDATED_AT,
      data_source: 'a fixed document (test plugin)',
    }
  }
}
