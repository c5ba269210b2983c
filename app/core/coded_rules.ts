import type { ErrorCode } from '#core/error_codes'

/**
 * Names of validation rules that are also stable error codes (handle_reserved,
 * invalid_source_path, …). When the only failed rule of a request is one of
 * them, the 422's `code` is that name instead of the generic validation_failed,
 * so clients can branch on it without reading `fields`.
 */
const codedRules = new Set<string>()

export function registerCodedRules(...names: ErrorCode[]) {
  for (const name of names) codedRules.add(name)
}

export function isCodedRule(name: string) {
  return codedRules.has(name)
}
