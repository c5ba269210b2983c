import app from '@adonisjs/core/services/app'
import vine from '@vinejs/vine'
import { type Microstx, parseStx } from '#ledger/money'
import { registerCodedRules } from '#core/coded_rules'
import { HANDLE_PATTERN, isReservedHandle } from '#provider_accounts/handles'

/**
 * VineJS rules whose names are the stable error codes of ARCHITECTURE §10:
 * when one of them is the only failure, the error's `code` is its name.
 */

export const MIN_PRICE: Microstx = 100n
export const MAX_PRICE: Microstx = 10_000_000n

/** Plain http is accepted only where the outbound client allows it (development, tests). */
export function allowsHttp() {
  return !app.config.get<boolean>('outbound.httpsOnly', true)
}

export function parseUrl(value: string): URL | null {
  try {
    return new URL(value)
  } catch {
    return null
  }
}

export function schemeAllowed(url: URL) {
  return url.protocol === 'https:' || (url.protocol === 'http:' && allowsHttp())
}

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

/** The ports the outbound client may call (production: 443 only); undefined = any. */
function allowedPorts() {
  return app.config.get<number[] | undefined>('outbound.allowedPorts')
}

function portOf(url: URL) {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80))
}

/** An origin only: scheme and host (and port), no path, no trailing slash, no credentials. */
export const partnerEndpointRule = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  const url = parseUrl(value)
  const isOrigin = url !== null && url.origin !== 'null' && url.origin === value
  const ports = allowedPorts()
  if (!isOrigin || !schemeAllowed(url) || (ports && !ports.includes(portOf(url)))) {
    field.report(
      `partner_endpoint must be an origin like https://api.example.com: ${
        allowsHttp() ? 'http(s)' : 'https'
      }, a host${ports ? ` on port ${ports.join(' or ')}` : ' and an optional port'}, with no path, query or trailing slash`,
      'invalid_partner_endpoint',
      field
    )
  }
})

export const websiteRule = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string') return
  const url = parseUrl(value)
  if (!url || !schemeAllowed(url) || url.username || url.password) {
    field.report('website must be an https URL', 'invalid_website', field)
  }
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

registerCodedRules(
  'handle_invalid',
  'handle_reserved',
  'invalid_partner_endpoint',
  'invalid_website',
  'invalid_price',
  'price_out_of_range'
)
