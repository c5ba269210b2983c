import { SimpleMessagesProvider } from '@vinejs/vine'
import { fields, messages } from '@vinejs/vine/defaults'
import type { FieldContext } from '@vinejs/vine/types'

/**
 * VineJS's own messages, except that a refused enum value is answered with
 * the allowed ones: "integration_mode must be one of partner_bridge,
 * hosted_mirror". A validator whose messages people read on a page may name
 * its fields in words (`{ q: 'search' }`: "The search field must be…").
 */
export class ValidationMessages extends SimpleMessagesProvider {
  constructor(fieldNames: Record<string, string> = {}) {
    super(
      { ...messages, enum: '{{ field }} must be one of {{ choices }}' },
      { ...fields, ...fieldNames }
    )
  }

  getMessage(rawMessage: string, rule: string, field: FieldContext, args?: Record<string, any>) {
    const choices = args?.choices
    return super.getMessage(
      rawMessage,
      rule,
      field,
      Array.isArray(choices) ? { ...args, choices: choices.join(', ') } : args
    )
  }
}
