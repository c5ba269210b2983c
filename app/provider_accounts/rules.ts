import vine from '@vinejs/vine'
import { type Microstx, parseStx } from '#ledger/money'
import { registerCodedRules } from '#core/coded_rules'
import { isPlainText } from '#core/plain_text'
import { outboundUrlProblem } from '#outbound/url_policy'
import { HANDLE_PATTERN, isReservedHandle } from '#provider_accounts/handles'

/**
 * VineJS rules whose names are stable error codes (app/core/error_codes.ts,
 * docs/api.md#errors): when one of them is the only failure, the error's
 * `code` is its name.
 */

export const MIN_PRICE: Microstx = 100n
export const MAX_PRICE: Microstx = 10_000_000n

export const handleRule = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  if (!HANDLE_PATTERN.test(value)) {
    field.report(
      'A handle is 3 to 32 characters of a-z, 0-9 and hyphens, not starting or ending with a hyphen',
      'handle_invalid',
      field
    )
  } else if (isReservedHandle(value)) {
    field.report(`The handle "${value}" is reserved`, 'handle_reserved', field)
  }
})

/**
 * An origin only: scheme and host (and a port the outbound client may call),
 * no path, no trailing slash, no credentials.
 */
export const partnerEndpointRule = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  const problem =
    outboundUrlProblem(value) ??
    (new URL(value).origin === value
      ? null
      : 'must be an origin like https://api.example.com: no path, query or trailing slash')
  if (problem) field.report(`partner_endpoint ${problem}`, 'invalid_partner_endpoint', field)
})

export const websiteRule = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  const problem = outboundUrlProblem(value)
  if (problem) field.report(`website ${problem}`, 'invalid_website', field)
})

/**
 * Names and descriptions of providers and feeds, shown to everyone: plain
 * text, on one line (app/core/plain_text.ts).
 */
export const plainText = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string' || isPlainText(value)) return
  field.report(
    `${field.name} must be plain text on one line: no line breaks, control characters, bidirectional overrides or zero-width characters`,
    'plain_text',
    field
  )
})

/**
 * A price in STX (number or decimal string, ≤ 6 decimals), turned into µSTX
 * without floats, within 0.0001–10 STX.
 */
export const stxPrice = vine.createRule((value, _options, field) => {
  const parsed = typeof value === 'string' || typeof value === 'number' ? parseStx(value) : null
  if (parsed === null) {
    field.report(
      'price_stx must be an amount of STX with at most 6 decimals, e.g. "0.005"',
      'invalid_price',
      field
    )
    return
  }
  if (parsed < MIN_PRICE || parsed > MAX_PRICE) {
    field.report(
      'price_stx must be between 0.0001 and 10 STX (0.003–0.05 STX is the usual range)',
      'price_out_of_range',
      field
    )
    return
  }
  field.mutate(parsed, field)
})

/**
 * An update must name a field it can change: a body of unknown fields only
 * (a typo, a field of another route) would otherwise answer 200 and change
 * nothing.
 */
export const anyKnownField = vine.createRule((value, fields: string[], field) => {
  if (typeof value !== 'object' || value === null) return
  if (!fields.some((name) => Object.hasOwn(value, name))) {
    field.report(
      `No known field to update; allowed: ${fields.join(', ')}`,
      'nothing_to_update',
      field
    )
  }
})

registerCodedRules(
  'handle_invalid',
  'handle_reserved',
  'invalid_partner_endpoint',
  'invalid_website',
  'invalid_price',
  'price_out_of_range',
  'nothing_to_update'
)
