import vine from '@vinejs/vine'
import { registerCodedRules } from '#core/coded_rules'

/**
 * A route of the partner's server in normalised form: `new URL(path, origin)`
 * gives back exactly this path, so the path Tollbooth signs is the one the
 * partner receives. No query, fragment, `.`/`..` segments or backslashes.
 */
const sourcePathRule = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  const normalised =
    value.startsWith('/') &&
    !value.startsWith('//') &&
    !/[?#\\]/.test(value) &&
    !value.split('/').some((segment) => segment === '..' || segment === '.') &&
    new URL(value, 'https://partner.invalid').pathname === value
  if (!normalised) {
    field.report(
      'source_path must be a normalised absolute path such as /v1/prices: it starts with /, has no query, fragment or . / .. segments',
      'invalid_source_path',
      field
    )
  }
})
registerCodedRules('invalid_source_path')

/** A Partner Bridge feed's source settings. */
export const partnerBridgeSettingsValidator = vine.create({
  source_path: vine.string().maxLength(512).use(sourcePathRule()),
  /** Query parameters of the buyer's request forwarded to the partner (default none). */
  forward_query: vine
    .array(vine.string().regex(/^[A-Za-z0-9_.-]{1,64}$/))
    .maxLength(10)
    .distinct()
    .optional(),
})

export type PartnerBridgeSettings = Awaited<
  ReturnType<typeof partnerBridgeSettingsValidator.validate>
>
