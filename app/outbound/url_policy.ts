import { bootedConfig } from '#core/injectable_config'
import { OutboundConfig } from '#outbound/define_config'
import { urlRuleViolation } from '#outbound/target_guard'

const outboundConfig = bootedConfig(OutboundConfig)

/**
 * Why the outbound client would refuse to call `value` under this
 * deployment's rules (the guard's own scheme, credentials and port rules), or
 * null: checked when a provider gives a URL, so a feed is never saved with a
 * URL that can only fail. Addresses are checked at call time, when the name
 * is resolved. Messages complete a sentence that starts with the field's name.
 */
export function outboundUrlProblem(value: string): string | null {
  if (/[\s\p{Cc}]/u.test(value)) return 'must not contain spaces or control characters'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be an absolute URL such as https://example.com/…'
  }
  const rules = outboundConfig()
  const violation = urlRuleViolation(url, rules)
  switch (violation?.rule) {
    case undefined:
      return null
    case 'scheme':
    case 'https_only':
      return `must be an ${rules.httpsOnly || !rules.allowPrivateTargets ? 'https' : 'http(s)'} URL`
    case 'userinfo':
      return 'must not contain a user name or password'
    case 'port':
      return `must use port ${violation.allowed.join(' or ')}`
  }
}
