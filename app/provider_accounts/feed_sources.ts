import { inject } from '@adonisjs/core'
import { errors as vineErrors } from '@vinejs/vine'
import { registerCodedRules } from '#core/coded_rules'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import type { ReceivedDocuments } from '#feeds/source_driver'
import type { IntegrationMode } from '#models/provider'
import type { SourceFields } from '#provider_accounts/validators'

export interface FeedSource {
  sourceType: string
  sourceSettings: Record<string, unknown>
  /** Set when the source sends its documents (push → the feed needs a push secret). */
  receives?: ReceivedDocuments
  /** The source is polled by mirrors:poll. */
  polled: boolean
}

type FieldError = { field: string; message: string; rule: string }

registerCodedRules('source_type_unavailable')

/**
 * Turns the mode-specific fields of a FEED into a source type and settings,
 * validated by that source's driver: the driver owns its settings schema, so
 * a new driver needs no change here beyond being configured. The source
 * types a Hosted Mirror feed may name are the drivers configured with
 * `mode: 'hosted_mirror'` (config/feeds.ts, or `sources.extend`); any other
 * is refused with source_type_unavailable, naming those that are.
 */
@inject()
export class FeedSources {
  constructor(private sources: FeedSourceManager) {}

  async resolve(mode: IntegrationMode, fields: SourceFields, prefix = ''): Promise<FeedSource> {
    if (mode === 'partner_bridge') {
      if (fields.source_path === undefined) {
        throw invalid([required(`${prefix}source_path`, 'Partner Bridge feeds need a source_path')])
      }
      return this.#validated(
        'partner_bridge',
        { source_path: fields.source_path, forward_query: fields.forward_query },
        prefix
      )
    }
    if (!fields.source) {
      throw invalid([required(`${prefix}source`, 'Hosted Mirror feeds need a source {type, …}')])
    }
    const { type, ...settings } = fields.source
    const available = this.sources.names('hosted_mirror')
    if (!available.includes(type)) {
      throw invalid([
        {
          field: `${prefix}source.type`,
          message: `The source type ${type} is not available on this marketplace; a Hosted Mirror feed can use ${available.join(', ')}`,
          rule: 'source_type_unavailable',
        },
      ])
    }
    return this.#validated(type, settings, `${prefix}source.`)
  }

  async #validated(sourceType: string, settings: Record<string, unknown>, prefix: string) {
    const driver = await this.sources.use(sourceType)
    try {
      const sourceSettings = driver.validateSettings
        ? await driver.validateSettings(settings)
        : settings
      return { sourceType, sourceSettings, receives: driver.receives, polled: Boolean(driver.poll) }
    } catch (error) {
      if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
      throw invalid(
        (error.messages as FieldError[]).map((message) => ({
          ...message,
          field: `${prefix}${message.field}`,
        }))
      )
    }
  }
}

function required(field: string, message: string): FieldError {
  return { field, message, rule: 'required' }
}

function invalid(messages: FieldError[]) {
  return new vineErrors.E_VALIDATION_ERROR(messages)
}
