import { inject } from '@adonisjs/core'
import { errors as vineErrors } from '@vinejs/vine'
import { registerCodedRules } from '#core/coded_rules'
import { FeedSourceManager } from '#feeds/feed_source_manager'
import type { IntegrationMode } from '#models/provider'
import type { SourceFields } from '#provider_accounts/validators'

export interface FeedSource {
  sourceType: string
  sourceSettings: Record<string, unknown>
}

type FieldError = { field: string; message: string; rule: string }

registerCodedRules('source_type_unavailable')

/**
 * Turns the mode-specific fields of a FEED into a source type and settings,
 * validated by that source's driver: the driver owns its settings schema, so
 * a new driver needs no change here beyond being configured.
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
    return this.#validated(type, settings, `${prefix}source.`)
  }

  async #validated(sourceType: string, settings: Record<string, unknown>, prefix: string) {
    if (!this.sources.names().includes(sourceType)) {
      throw invalid([
        {
          field: `${prefix}type`,
          message: `The source type ${sourceType} is not available on this marketplace yet`,
          rule: 'source_type_unavailable',
        },
      ])
    }
    const driver = await this.sources.use(sourceType)
    try {
      const sourceSettings = driver.validateSettings
        ? await driver.validateSettings(settings)
        : settings
      return { sourceType, sourceSettings }
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
