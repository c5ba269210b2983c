import { isPlainText } from '#core/plain_text'

/**
 * The optional `x-agent-name` header: UTF-8, trimmed, 1–48 characters of
 * plain text (no control or format characters). An invalid name is ignored,
 * never an error.
 */
export function sanitiseAgentName(header: string | undefined | null): string | undefined {
  if (typeof header !== 'string') return undefined
  const name = header.trim()
  const length = [...name].length
  if (length < 1 || length > 48) return undefined
  return isPlainText(name) ? name : undefined
}

/** SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7 → SP2J…9EJ7 */
export function shortAddress(address: string) {
  return address.length <= 9 ? address : `${address.slice(0, 4)}…${address.slice(-4)}`
}
