import app from '@adonisjs/core/services/app'
import type { OutboundConfig } from '#config/outbound'

/**
 * Why the outbound client would refuse to call `value` under this
 * deployment's rules (scheme, credentials, port), or null: checked when a
 * provider gives a URL, so a feed is never saved with a URL that can only
 * fail. Addresses are checked at call time, when the name is resolved.
 * Messages complete a sentence that starts with the field's name.
 */
export function outboundUrlProblem(value: string): string | null {
  if (/[\s\p{Cc}]/u.test(value)) return 'must not contain spaces or control characters'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be an absolute URL such as https://example.com/…'
  }
  const { httpsOnly, allowedPorts } = app.config.get<OutboundConfig>('outbound')
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !httpsOnly)) {
    return `must be an ${httpsOnly ? 'https' : 'http(s)'} URL`
  }
  if (url.username || url.password) return 'must not contain a user name or password'
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  if (allowedPorts && !allowedPorts.includes(port)) {
    return `must use port ${allowedPorts.join(' or ')}`
  }
  return null
}
