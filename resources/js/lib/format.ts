export { count, noun } from '../../../app/web/words'

/** SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7 → SP2J…9EJ7 */
export function shortAddress(address: string) {
  return address.length <= 9 ? address : `${address.slice(0, 4)}…${address.slice(-4)}`
}

/** An ISO time as the reader's local date and time. */
export function when(iso: string | null | undefined) {
  if (!iso) return '—'
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** An ISO time relative to now: "in 4 min", "3 h ago". */
export function relative(iso: string | null | undefined) {
  if (!iso) return '—'
  const seconds = Math.round((Date.parse(iso) - Date.now()) / 1000)
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' })
  const abs = Math.abs(seconds)
  if (abs < 60) return format.format(seconds, 'second')
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute')
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), 'hour')
  return format.format(Math.round(seconds / 86_400), 'day')
}
